/**
 * A `serve` session's way to its folder's shared gateway (listener.ts): connect to the one the
 * discovery file names, or, when there is none or it is dead (its pid gone, its socket refusing),
 * take the start lock, start one and wait for it. Two sessions starting at once end on the same
 * gateway: the second waits on the lock and finds the first's gateway when it gets it.
 */
import { createConnection, type Socket } from 'node:net';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, pidAlive } from '../../private-file.js';
import type { AgentView } from '../views.js';
import { DISCOVERY, readFirstLine, readSharedDiscovery, type Hello, type SharedDiscovery } from './hello.js';
import { withStartLock } from './lock.js';

export interface SharedConnection {
  socket: Socket;
  /** What the gateway sent after its answer to the hello (stderr lines, perhaps). */
  rest: Buffer;
  /** The gateway's pid. */
  pid: number;
}

/** The gateway refused the session for a reason it gave (an unknown profile): no use retrying. */
export class SharedRefusal extends Error {}

type Attempt = SharedConnection | { stale?: SharedDiscovery };

function connectTo(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.off('error', onError);
      resolve(s);
    });
    const onError = (): void => resolve(undefined);
    s.once('error', onError);
  });
}

async function attempt(dir: string, view: AgentView): Promise<Attempt> {
  const d = await readSharedDiscovery(dir);
  if (!d) return {};
  if (!pidAlive(d.pid)) return { stale: d };
  const socket = await connectTo(d.socket);
  if (!socket) return { stale: d };
  socket.on('error', () => undefined);
  const hello: Hello = { mcpHostHello: 1, token: d.token, view };
  socket.write(`${JSON.stringify(hello)}\n`);
  try {
    const { value, rest } = await readFirstLine(socket, 15_000);
    const v = value as Record<string, unknown>;
    if (v.mcpHostReady === 1) return { socket, rest, pid: d.pid };
    socket.destroy();
    // A token that does not match: the file was replaced between our read and connect; try again.
    if (typeof v.mcpHostRefused !== 'string' || v.mcpHostRefused === 'bad token') return {};
    throw new SharedRefusal(v.mcpHostRefused);
  } catch (err) {
    socket.destroy();
    if (err instanceof SharedRefusal) throw err;
    // Closed on us: the gateway was ending its grace period as we came; a new one is started.
    return {};
  }
}

export interface ConnectSharedOptions {
  dir: string;
  view: AgentView;
  /** Starts a gateway for this folder (detached), called holding the start lock; returns whether it still runs. */
  start(): () => boolean;
  /** How long a started gateway has to answer. */
  startTimeoutMs?: number;
}

export async function connectShared(o: ConnectSharedOptions): Promise<SharedConnection> {
  await ensurePrivateDir(o.dir);
  for (let round = 0; round < 4; round++) {
    const first = await attempt(o.dir, o.view);
    if ('socket' in first) return first;
    const got = await withStartLock(o.dir, async () => {
      const again = await attempt(o.dir, o.view);
      if ('socket' in again) return again;
      // A dead gateway's file: removed, so nobody reads it again (its replacement writes its own).
      if (again.stale) await fs.rm(join(o.dir, DISCOVERY), { force: true });
      const running = o.start();
      const until = Date.now() + (o.startTimeoutMs ?? 30_000);
      while (Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        const next = await attempt(o.dir, o.view);
        if ('socket' in next) return next;
        // It ended without serving (an error in its log, or it found another gateway): the next round sees.
        if (!running()) break;
      }
      return undefined;
    });
    if (got) return got;
  }
  throw new Error(`the shared gateway in ${o.dir} did not start (see ${join(o.dir, 'gateway.log')})`);
}
