/**
 * The IDE WebSocket server: an MCP server per agent connection, on 127.0.0.1 at a port the OS
 * picks, announced through a lock file that carries the auth token. See auth.ts for who may
 * connect, tools.ts for what they may do.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/server';
import { WebSocketServer, type WebSocket } from 'ws';
import * as z from 'zod/v4';
import { Emitter, type Event } from '../events.js';
import type { Disposable, Logger } from '../ports.js';
import { generateToken, listenOnLoopback } from '../loopback.js';
import { checkUpgrade } from './auth.js';
import type { EditorPort, IdeSelection } from './editor-port.js';
import { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../connection-limits.js';
import { cleanStaleLockFiles, defaultLockDir, removeLockFile, removeLockFileSync, writeLockFile } from './lock-file.js';
import { readOnlyTools, registerIdeTools } from './tools.js';
import { DirectCalls } from './direct-calls.js';
import { WebSocketServerTransport } from './ws-transport.js';
import { VERSION } from '../version.js';

export interface IdeServerOptions {
  editor: EditorPort;
  logger: Logger;
  /** Shown to agents (`ideName` in the lock file); also marks which stale lock files are ours. */
  ideName: string;
  /** Where `<port>.lock` goes; default `$CLAUDE_CONFIG_DIR/ide` or `~/.claude/ide`. */
  lockDir?: string;
  /** Environment for the default lock dir; default process.env. */
  env?: Record<string, string | undefined>;
  serverInfo?: { name: string; version: string };
  /** Largest accepted frame; bigger ones close the connection (1009). Default 32 MiB (openDiff carries whole files). */
  maxPayloadBytes?: number;
  /** Ping interval; a peer that missed the previous pong is terminated. Default 30 s. */
  keepAliveMs?: number;
  /** Answer read-only tool calls on the direct path (direct-calls.ts). Default true; off: every message through the SDK. */
  directCalls?: boolean;
  /** Quiet time before `selection_changed` is sent. Default 100 ms. */
  selectionDebounceMs?: number;
  /** Sockets waiting for their handshake and how long they may wait (limits.ts). */
  limits?: ConnectionLimits & {
    /** Open sockets in all (agents and handshakes); more are refused by Node. Default 1,024 (the review served 500 agents at once). */
    maxConnections?: number;
    /** Answers a client has not read (bytes) before the server stops reading its requests. Default 8 MiB. */
    pauseUnreadBytes?: number;
    /** Unread answers (bytes) at which the client is disconnected. Default 128 MiB. */
    maxUnreadBytes?: number;
  };
}

/** `at_mentioned` parameters; lines are 0-based and omitted for a whole file. */
export interface AtMention {
  filePath: string;
  lineStart?: number;
  lineEnd?: number;
}

interface Client {
  ws: WebSocket;
  mcp: McpServer;
  transport: WebSocketServerTransport;
  direct: DirectCalls;
  alive: boolean;
  initialized: boolean;
  agentPid?: number;
}

const IdeConnectedParams = z.object({ pid: z.number().int().optional() }).passthrough();

export class IdeServer {
  private readonly clients = new Set<Client>();
  private readonly changed = new Emitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private latest: IdeSelection | undefined;
  private lastSent: string | undefined;
  private selectionTimer: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly refusals: RateLimitedLog;
  private readonly pending: PendingSockets;
  private readonly onExit = (): void => removeLockFileSync(this.lockDir, this.port);

  /** Fires when a client connects or disconnects. */
  readonly onDidChange: Event<void> = this.changed.event;

  private constructor(
    private readonly opts: IdeServerOptions,
    private readonly http: HttpServer,
    private readonly wss: WebSocketServer,
    private readonly token: string,
    readonly port: number,
    readonly lockDir: string,
  ) {
    this.refusals = new RateLimitedLog((line) => opts.logger.warn(line));
    this.pending = new PendingSockets(opts.limits ?? {}, (why) =>
      this.refusals.log(`IDE server: dropped a connection: ${why}`),
    );
  }

  /** Listens, cleans our stale lock files, writes this one. Rejects (and leaves nothing behind) on failure. */
  static async start(opts: IdeServerOptions): Promise<IdeServer> {
    const lockDir = opts.lockDir ?? defaultLockDir(opts.env);
    const token = generateToken();
    const http = createServer((_req, res) => {
      // Only WebSocket upgrades are served; plain HTTP (a page's fetch, a probe) learns nothing.
      res.writeHead(426, { 'Content-Type': 'text/plain', Connection: 'close' });
      res.end('Upgrade Required');
    });
    const wss = new WebSocketServer({
      noServer: true,
      maxPayload: opts.maxPayloadBytes ?? 32 * 1024 * 1024,
      perMessageDeflate: false,
      clientTracking: false,
      // Invalid UTF-8 in a text frame would make ws close the connection (1007); instead it decodes
      // with replacement characters and the transport answers with a JSON-RPC parse error.
      skipUTF8Validation: true,
      handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    });
    const port = await listenOnLoopback(http);
    const server = new IdeServer(opts, http, wss, token, port, lockDir);
    try {
      const stale = await cleanStaleLockFiles(lockDir, opts.ideName);
      for (const f of stale) opts.logger.info(`IDE server: removed stale lock file ${f}`);
      await server.writeLock();
    } catch (err) {
      await server.dispose();
      throw err;
    }
    server.wire();
    opts.logger.info(`IDE server listening on 127.0.0.1:${port}`);
    return server;
  }

  get lockFile(): string {
    return `${this.lockDir}/${this.port}.lock`;
  }

  clientCount(): number {
    return this.clients.size;
  }

  /** Calls the connected agents had answered on the direct path (direct-calls.ts). */
  directAnswers(): number {
    let n = 0;
    for (const c of this.clients) n += c.direct.answered;
    return n;
  }

  /** Sends `at_mentioned` to every initialized agent; returns how many heard it. */
  notifyAtMention(mention: AtMention): number {
    return this.broadcast('at_mentioned', { ...mention });
  }

  /** Rewrites the lock file (e.g. after workspace folders changed). */
  async writeLock(): Promise<void> {
    await writeLockFile(this.lockDir, this.port, {
      pid: process.pid,
      workspaceFolders: this.opts.editor.workspaceFolders().map((f) => f.path),
      ideName: this.opts.ideName,
      transport: 'ws',
      runningInWindows: process.platform === 'win32',
      authToken: this.token,
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    process.off('exit', this.onExit);
    clearInterval(this.keepAlive);
    clearTimeout(this.selectionTimer);
    this.pending.dispose();
    this.refusals.flush();
    for (const s of this.subscriptions) s.dispose();
    for (const c of [...this.clients]) {
      c.ws.close(1001, 'IDE closing');
      // A peer that ignores the close frame must not keep the process alive.
      setTimeout(() => c.ws.terminate(), 1000).unref();
    }
    this.wss.close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
    await removeLockFile(this.lockDir, this.port).catch((err: unknown) =>
      this.opts.logger.warn(`IDE server: could not remove lock file: ${String(err)}`),
    );
    this.changed.fire();
    this.changed.dispose();
    this.opts.logger.info('IDE server stopped');
  }

  private wire(): void {
    process.once('exit', this.onExit);
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.http.on('clientError', (_err, socket) => socket.destroy());
    // No token is needed to open a TCP connection, so idle ones are bounded in number and time.
    this.http.maxConnections = this.opts.limits?.maxConnections ?? 1024;
    this.http.on('connection', (socket: Socket) => this.pending.add(socket));
    this.http.on('request', (req: IncomingMessage) => this.pending.forget(req.socket));
    const interval = this.opts.keepAliveMs ?? 30_000;
    this.keepAlive = setInterval(() => this.ping(), interval);
    this.keepAlive.unref();
    const { editor } = this.opts;
    this.subscriptions.push(
      editor.onDidChangeSelection((sel) => this.selectionChanged(sel)),
      editor.onDidChangeWorkspaceFolders(() => {
        this.writeLock().catch((err: unknown) =>
          this.opts.logger.warn(`IDE server: could not update lock file: ${String(err)}`),
        );
      }),
    );
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.pending.forget(req.socket);
    socket.on('error', () => socket.destroy());
    const verdict = this.disposed
      ? ({ ok: false, status: 403, reason: 'closing' } as const)
      : checkUpgrade(req, this.token, this.port);
    if (!verdict.ok) {
      this.refusals.log(`IDE server: refused connection from ${req.socket.remoteAddress ?? '?'}: ${verdict.reason}`);
      const text = verdict.status === 401 ? 'Unauthorized' : verdict.status === 403 ? 'Forbidden' : 'Bad Request';
      socket.end(`HTTP/1.1 ${verdict.status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
        socket.destroy(),
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.accept(ws, socket).catch((err: unknown) => {
        this.opts.logger.error(`IDE server: could not serve a connection: ${String(err)}`);
        ws.terminate();
      });
    });
  }

  private async accept(ws: WebSocket, socket: Duplex): Promise<void> {
    const mcp = new McpServer(this.opts.serverInfo ?? { name: 'mcp-host-ide', version: VERSION }, {
      capabilities: { tools: {} },
    });
    const ctx = { editor: this.opts.editor, latestSelection: () => this.latest, logger: this.opts.logger };
    const readers = readOnlyTools(ctx);
    registerIdeTools(mcp, ctx, readers);
    const direct = new DirectCalls(readers, () => client.initialized);
    const limits = this.opts.limits ?? {};
    const transport = new WebSocketServerTransport(
      ws,
      {
        pauseAtBytes: limits.pauseUnreadBytes ?? 8 * 1024 * 1024,
        closeAtBytes: limits.maxUnreadBytes ?? 128 * 1024 * 1024,
        onBackpressure: (what, bytes) =>
          this.opts.logger.warn(
            what === 'paused'
              ? `IDE server: an agent is not reading its answers (${Math.round(bytes / 1024)} KB waiting); its requests are not read until it catches up`
              : `IDE server: disconnected an agent with ${Math.round(bytes / 1024 / 1024)} MB of unread answers`,
          ),
      },
      this.opts.directCalls === false ? undefined : (m) => direct.answer(m),
      socket,
    );
    const client: Client = { ws, mcp, transport, direct, alive: true, initialized: false };
    mcp.server.oninitialized = () => {
      client.initialized = true;
      const info = mcp.server.getClientVersion();
      this.opts.logger.info(`IDE server: agent initialized (${info?.name ?? '?'} ${info?.version ?? ''})`);
    };
    mcp.server.setNotificationHandler('ide_connected', { params: IdeConnectedParams }, (params) => {
      if (!client.initialized) return;
      client.agentPid = params.pid;
      this.opts.logger.info(`IDE server: agent announced itself (pid ${client.agentPid ?? '?'})`);
    });
    mcp.server.onerror = (err) => this.opts.logger.debug(`IDE server: ${err.message}`);
    // Only a pong proves the peer reads: a client that writes requests and never reads the
    // answers must not count as alive (its answers pile up in our memory).
    ws.on('pong', () => (client.alive = true));
    ws.on('close', () => {
      if (!this.clients.delete(client)) return;
      this.opts.logger.info(`IDE server: agent disconnected (${this.clients.size} left)`);
      this.changed.fire();
    });
    this.clients.add(client);
    await mcp.connect(transport);
    this.opts.logger.info(`IDE server: agent connected (${this.clients.size} total)`);
    this.changed.fire();
  }

  private ping(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        this.opts.logger.info('IDE server: terminating an agent connection that stopped answering pings');
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  private selectionChanged(sel: IdeSelection): void {
    this.latest = sel;
    clearTimeout(this.selectionTimer);
    this.selectionTimer = setTimeout(() => {
      const payload = JSON.stringify(this.latest);
      if (payload === this.lastSent) return;
      this.lastSent = payload;
      this.broadcast('selection_changed', { ...this.latest });
    }, this.opts.selectionDebounceMs ?? 100);
    this.selectionTimer.unref();
  }

  private broadcast(method: string, params: Record<string, unknown>): number {
    let n = 0;
    for (const c of this.clients) {
      if (!c.initialized) continue;
      n++;
      // Custom notifications bypass the SDK's typed notification() on purpose: they are not MCP methods.
      c.transport.send({ jsonrpc: '2.0', method, params }).catch(() => {
        // A closing socket; its close handler removes it.
      });
    }
    return n;
  }
}
