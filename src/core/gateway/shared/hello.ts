/**
 * The shared gateway's discovery file and the first line each way on a connection to it. After
 * the hello the connection carries the agent's JSON-RPC as stdio would (newline-delimited), plus
 * lines `{"mcpHostStderr": …}` from the gateway that the front writes to its own stderr, so each
 * session sees what a serve of its own would have said (a misspelt `--exclude`, servers held back).
 */
import { timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { AgentView } from '../views.js';

export const DISCOVERY = 'gateway.json';

/** `gateway.json` in the shared gateway's folder (0600). */
export interface SharedDiscovery {
  pid: number;
  socket: string;
  token: string;
  startedAt: number;
}

export async function readSharedDiscovery(dir: string): Promise<SharedDiscovery | undefined> {
  try {
    const v = JSON.parse(await fs.readFile(join(dir, DISCOVERY), 'utf8')) as Partial<SharedDiscovery>;
    if (typeof v.pid !== 'number' || typeof v.socket !== 'string' || typeof v.token !== 'string') return undefined;
    return { pid: v.pid, socket: v.socket, token: v.token, startedAt: Number(v.startedAt ?? 0) };
  } catch {
    return undefined;
  }
}

export interface Hello {
  mcpHostHello: 1;
  token: string;
  view: AgentView;
}

export type HelloAnswer = { mcpHostReady: 1 } | { mcpHostRefused: string };

export const STDERR_KEY = 'mcpHostStderr';
const STDERR_PREFIX = `{"${STDERR_KEY}":`;

export function stderrLine(text: string): string {
  return `${JSON.stringify({ [STDERR_KEY]: text })}\n`;
}

/** The stderr text a gateway's line carries, or undefined for the agent's JSON-RPC (looked at only that far). */
export function stderrOf(line: Buffer): string | undefined {
  if (line.length < STDERR_PREFIX.length || line.toString('utf8', 0, STDERR_PREFIX.length) !== STDERR_PREFIX)
    return undefined;
  try {
    const v = (JSON.parse(line.toString('utf8')) as Record<string, unknown>)[STDERR_KEY];
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The first line from `socket` as JSON, and what came after it; rejects on close, an over-long
 * line or the deadline. The socket is paused again when it resolves.
 */
export function readFirstLine(socket: Socket, timeoutMs: number): Promise<{ value: unknown; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const done = (err?: Error, value?: { value: unknown; rest: Buffer }): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      socket.pause();
      if (err) reject(err);
      else resolve(value!);
    };
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        if (buf.length > 64 * 1024) done(new Error('first line too long'));
        return;
      }
      try {
        done(undefined, { value: JSON.parse(buf.subarray(0, nl).toString('utf8')), rest: buf.subarray(nl + 1) });
      } catch {
        done(new Error('first line is not JSON'));
      }
    };
    const onClose = (): void => done(new Error('closed before its first line'));
    const onError = (err: Error): void => done(err);
    const timer = setTimeout(() => done(new Error('no first line in time')), timeoutMs);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onError);
    socket.resume();
  });
}
