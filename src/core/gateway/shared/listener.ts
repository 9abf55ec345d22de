/**
 * The shared gateway's door (the process `serve` starts detached): a socket only this user can
 * reach, a token in the discovery file (0600) each session's hello must carry, and a count of
 * sessions connected. When the last one leaves, a grace period starts; at its end, with nobody
 * back, the gateway removes its discovery file, stops listening and `idle` resolves (its servers
 * stop with the process). A gateway whose discovery file is gone or names another process (its
 * folder removed, or replaced by a newer gateway after a race) stops taking sessions and ends
 * with its last one, without a grace period.
 */
import { createServer, createConnection, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../../ports.js';
import { ensurePrivateDir, writePrivateFile } from '../../private-file.js';
import type { AgentView } from '../views.js';
import { DISCOVERY, readFirstLine, readSharedDiscovery, stderrLine, tokenMatches, type HelloAnswer } from './hello.js';
import { socketPath } from './key.js';

export interface SharedListenerOptions {
  dir: string;
  key: string;
  graceMs: number;
  logger: Logger;
  /** Refuses a session's view (an unknown profile) with the reason, or accepts it (undefined). */
  check(view: AgentView): string | undefined;
  /** Serves a session once its hello is accepted; `rest` is what it sent after the hello. */
  onSession(socket: Socket, view: AgentView, rest: Buffer): void;
}

const BACKLOG_LINES = 200;
const OWNER_CHECK_MS = 1000;
const FIRST_SESSION_MS = 15_000;

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function canConnect(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function viewOf(v: unknown): AgentView {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  return {
    ...(typeof o.profile === 'string' ? { profile: o.profile } : {}),
    ...(o.tools === 'full' || o.tools === 'search' ? { tools: o.tools } : {}),
  };
}

export class SharedListener {
  private readonly sockets = new Set<Socket>();
  /** Sessions past their hello: the only ones a broadcast goes to (before it, their first line is the answer). */
  private readonly greeted = new Set<Socket>();
  private readonly backlog: string[] = [];
  private grace: NodeJS.Timeout | undefined;
  private draining = false;
  private ended = false;
  private end: (why: string) => void = () => {};
  /** Resolves once the gateway is done (idle past the grace period, or replaced), with why. */
  readonly idle = new Promise<string>((resolve) => (this.end = resolve));
  private readonly ownerCheck: NodeJS.Timeout;

  private constructor(
    private readonly opts: SharedListenerOptions,
    private readonly server: Server,
    private readonly token: string,
  ) {
    server.on('connection', (s) => this.accept(s));
    this.ownerCheck = setInterval(() => void this.checkOwner(), OWNER_CHECK_MS);
    this.ownerCheck.unref();
    // The session that started this gateway is on its way: it gets time to connect, whatever the grace period.
    this.armGrace(Math.max(opts.graceMs, FIRST_SESSION_MS));
  }

  /**
   * Listens and writes the discovery file; undefined when a live gateway already listens on this
   * folder's socket (two started at once: the second leaves). A socket file left by a dead one is replaced.
   */
  static async open(opts: SharedListenerOptions): Promise<SharedListener | undefined> {
    await ensurePrivateDir(opts.dir);
    const path = socketPath(opts.dir, opts.key);
    if (process.platform !== 'win32') await ensurePrivateDir(dirname(path));
    const server = createServer();
    try {
      await listen(server, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (await canConnect(path))) return undefined;
      await fs.rm(path, { force: true });
      await listen(server, path);
    }
    const token = randomBytes(32).toString('base64url');
    await writePrivateFile(
      opts.dir,
      DISCOVERY,
      JSON.stringify({ pid: process.pid, socket: path, token, startedAt: Date.now() }),
    );
    return new SharedListener(opts, server, token);
  }

  /** Sessions connected now. */
  get sessions(): number {
    return this.sockets.size;
  }

  /** Sent to every session as stderr, and to each later one when it connects (the last lines). */
  broadcast(text: string): void {
    this.backlog.push(text);
    if (this.backlog.length > BACKLOG_LINES) this.backlog.shift();
    const line = stderrLine(text);
    for (const s of this.greeted) if (s.writable) s.write(line);
  }

  private accept(socket: Socket): void {
    if (this.draining) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    clearTimeout(this.grace);
    socket.on('error', () => undefined);
    this.opts.logger.debug(`serve: a session connects (${this.sockets.size} now)`);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.greeted.delete(socket);
      this.opts.logger.debug(`serve: a session left (${this.sockets.size} now)`);
      if (this.sockets.size === 0) this.armGrace();
    });
    void this.greet(socket);
  }

  private async greet(socket: Socket): Promise<void> {
    let hello;
    try {
      hello = await readFirstLine(socket, 10_000);
    } catch (err) {
      this.opts.logger.debug(`serve: a connection without hello: ${(err as Error).message}`);
      socket.destroy();
      return;
    }
    const v = hello.value as Record<string, unknown> | null;
    const answer = (a: HelloAnswer): boolean => socket.write(`${JSON.stringify(a)}\n`);
    if (!v || v.mcpHostHello !== 1 || !tokenMatches(v.token, this.token)) {
      answer({ mcpHostRefused: 'bad token' });
      socket.end();
      return;
    }
    const view = viewOf(v.view);
    const refused = this.opts.check(view);
    if (refused !== undefined) {
      answer({ mcpHostRefused: refused });
      socket.end();
      return;
    }
    answer({ mcpHostReady: 1 });
    for (const text of this.backlog) socket.write(stderrLine(text));
    this.greeted.add(socket);
    this.opts.onSession(socket, view, hello.rest);
  }

  private armGrace(ms = this.opts.graceMs): void {
    clearTimeout(this.grace);
    if (this.draining) return this.finish('replaced');
    this.grace = setTimeout(() => this.finish('idle'), ms);
  }

  private async checkOwner(): Promise<void> {
    if (this.draining || this.ended) return;
    const d = await readSharedDiscovery(this.opts.dir);
    if (d?.pid === process.pid) return;
    this.opts.logger.debug('serve: the shared gateway was replaced or its folder removed; ending with its sessions');
    this.draining = true;
    this.server.close();
    if (this.sockets.size === 0) this.finish('replaced');
  }

  private finish(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.draining = true;
    clearTimeout(this.grace);
    clearInterval(this.ownerCheck);
    // The discovery file first: a session that reads it from now on starts a new gateway.
    void (async () => {
      const d = await readSharedDiscovery(this.opts.dir);
      if (d?.pid === process.pid) await fs.rm(join(this.opts.dir, DISCOVERY), { force: true });
      this.server.close();
      this.end(why);
    })();
  }

  /** Stops taking sessions and ends those connected (the gateway is stopping). */
  close(): void {
    for (const s of this.sockets) s.destroy();
    this.finish('closed');
  }
}
