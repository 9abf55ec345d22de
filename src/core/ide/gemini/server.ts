/**
 * The IDE server Gemini CLI speaks to ("Gemini CLI companion plugin: Interface specification"):
 * MCP over Streamable HTTP at `/mcp` on 127.0.0.1, a port from the OS, found through a discovery
 * file (discovery.ts) and the integrated terminal's variables. It serves the same EditorPort as
 * the Claude Code server beside it (../server.ts), under the same rules: loopback only, a bearer
 * token compared in constant time, browser origins and foreign `Host` headers refused, bounded
 * pending sockets. Context goes out as `ide/contextUpdate` (context.ts); diffs are `openDiff` /
 * `closeDiff` with `ide/diffAccepted` / `ide/diffRejected` sent to the session that opened them.
 */
import { VERSION } from '../../version.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { Emitter, type Event } from '../../events.js';
import type { Disposable, Logger } from '../../ports.js';
import { checkLoopbackAccess, generateToken, listenOnLoopback } from '../../loopback.js';
import { errorMessage } from '../../connection/errors.js';
import type { EditorPort } from '../editor-port.js';
import { PendingSockets, RateLimitedLog, type ConnectionLimits } from '../../connection-limits.js';
import { RecentFiles } from './context.js';
import {
  defaultDiscoveryDir,
  discoveryFileName,
  joinWorkspacePaths,
  removeDiscoveryFile,
  removeDiscoveryFileSync,
  writeDiscoveryFile,
} from './discovery.js';
import { BodyTooLarge, readBody, sendWebResponse, toWebRequest } from './http-bridge.js';
import { GeminiDiffs, registerGeminiTools } from './tools.js';

export interface GeminiIdeServerOptions {
  editor: EditorPort;
  logger: Logger;
  /** `ideInfo` of the discovery file; Gemini CLI shows `displayName`. Default VS Code. */
  ideInfo?: { name: string; displayName: string };
  /** The editor's process id in the discovery file's name: the process Gemini CLI finds above its shell. Default process.ppid (the extension host's parent). */
  idePid?: number;
  /** Default `os.tmpdir()/gemini/ide`. */
  discoveryDir?: string;
  serverInfo?: { name: string; version: string };
  /** Largest request body (openDiff carries whole files). Default 32 MiB. */
  maxBodyBytes?: number;
  /** Quiet time before `ide/contextUpdate` goes out; the interface recommends 50 ms. */
  contextDebounceMs?: number;
  limits?: ConnectionLimits & {
    /** Open sockets in all; more are refused by Node. Default 1,024. */
    maxConnections?: number;
    /** MCP sessions kept; over it the oldest one without an open event stream is closed. Default 64. */
    maxSessions?: number;
  };
}

interface Session {
  id?: string;
  mcp: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Open GET event streams. */
  streams: number;
  /** Answered its tools/list: Gemini CLI calls itself connected, and shows diffs in the editor, only from then on. */
  listedTools: boolean;
}

const SESSION_HEADER = 'mcp-session-id';

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer (\S+)$/.exec(h);
  return m ? m[1] : '';
}

function firstMethod(body: Buffer | undefined): unknown {
  if (!body) return undefined;
  try {
    const msg = JSON.parse(body.toString('utf8')) as unknown;
    const first = Array.isArray(msg) ? (msg[0] as unknown) : msg;
    return typeof first === 'object' && first !== null ? (first as { method?: unknown }).method : undefined;
  } catch {
    return undefined;
  }
}

function jsonError(res: ServerResponse, status: number, message: string, close = false): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...(close ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export class GeminiIdeServer {
  private readonly sessions = new Map<string, Session>();
  /** Diffs open in the editor, each answered on the session that opened it. */
  private readonly diffs: GeminiDiffs<Session>;
  private readonly changed = new Emitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private readonly refusals: RateLimitedLog;
  private readonly pending: PendingSockets;
  private readonly recent: RecentFiles;
  private contextTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly onExit = (): void => removeDiscoveryFileSync(this.discoveryFile);

  /** Fires when an agent connects (see clientCount) or its event stream closes, and when the server stops. */
  readonly onDidChange: Event<void> = this.changed.event;

  private constructor(
    private readonly opts: GeminiIdeServerOptions,
    private readonly http: HttpServer,
    private readonly token: string,
    readonly port: number,
    readonly discoveryFile: string,
    private readonly idePid: number,
  ) {
    this.refusals = new RateLimitedLog((line) => opts.logger.warn(line));
    this.pending = new PendingSockets(opts.limits ?? {}, (why) =>
      this.refusals.log(`Gemini IDE server: dropped a connection: ${why}`),
    );
    this.recent = new RecentFiles(opts.editor);
    this.diffs = new GeminiDiffs(opts.editor, opts.logger, (session, method, params) =>
      this.notify(session, method, params),
    );
  }

  /** Listens, writes the discovery file. Rejects (and leaves nothing behind) on failure. */
  static async start(opts: GeminiIdeServerOptions): Promise<GeminiIdeServer> {
    const dir = opts.discoveryDir ?? defaultDiscoveryDir();
    const idePid = opts.idePid ?? process.ppid;
    const token = generateToken();
    const http = createServer();
    const port = await listenOnLoopback(http);
    const server = new GeminiIdeServer(opts, http, token, port, `${dir}/${discoveryFileName(idePid, port)}`, idePid);
    server.wire();
    try {
      await server.writeDiscovery();
    } catch (err) {
      await server.dispose();
      throw err;
    }
    opts.logger.info(`Gemini IDE server listening on 127.0.0.1:${port}`);
    return server;
  }

  /** What a terminal needs so `gemini` started there connects without setup (the names Gemini CLI 0.61.0 reads). */
  terminalEnvironment(): Record<string, string> {
    return {
      GEMINI_CLI_IDE_SERVER_PORT: String(this.port),
      GEMINI_CLI_IDE_WORKSPACE_PATH: this.workspacePath(),
      GEMINI_CLI_IDE_AUTH_TOKEN: this.token,
      // Spares the CLI its walk up the process tree, which a wrapper between shell and CLI misleads.
      GEMINI_CLI_IDE_PID: String(this.idePid),
    };
  }

  /**
   * Agents with an open event stream that have listed the tools. Gemini CLI lists them after it
   * opens the stream and only then uses the editor's diff: a prompt sent before gets the
   * terminal's own confirmation.
   */
  clientCount(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.streams > 0 && s.listedTools) n++;
    return n;
  }

  /** Rewrites the discovery file (e.g. after workspace folders changed). */
  async writeDiscovery(): Promise<void> {
    await writeDiscoveryFile(this.opts.discoveryDir ?? defaultDiscoveryDir(), this.idePid, {
      port: this.port,
      workspacePath: this.workspacePath(),
      authToken: this.token,
      ideInfo: this.opts.ideInfo ?? { name: 'vscode', displayName: 'VS Code' },
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    process.off('exit', this.onExit);
    clearTimeout(this.contextTimer);
    this.pending.dispose();
    this.refusals.flush();
    for (const s of this.subscriptions) s.dispose();
    this.diffs.closeAll();
    for (const s of [...this.sessions.values()]) await this.closeSession(s);
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
    await removeDiscoveryFile(this.discoveryFile).catch((err: unknown) =>
      this.opts.logger.warn(`Gemini IDE server: could not remove ${this.discoveryFile}: ${errorMessage(err)}`),
    );
    this.changed.fire();
    this.changed.dispose();
    this.opts.logger.info('Gemini IDE server stopped');
  }

  private workspacePath(): string {
    return joinWorkspacePaths(this.opts.editor.workspaceFolders().map((f) => f.path));
  }

  private wire(): void {
    process.once('exit', this.onExit);
    this.http.maxConnections = this.opts.limits?.maxConnections ?? 1024;
    // No token is needed to open a TCP connection, so sockets that never send a request are bounded in number and time.
    this.http.on('connection', (socket: Socket) => this.pending.add(socket));
    this.http.on('clientError', (_err, socket: Socket) => socket.destroy());
    this.http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.pending.forget(req.socket);
      this.handle(req, res).catch((err: unknown) => {
        this.opts.logger.error(`Gemini IDE server: ${errorMessage(err)}`);
        if (!res.headersSent) jsonError(res, 500, 'Internal server error');
        else res.destroy();
      });
    });
    const { editor } = this.opts;
    this.subscriptions.push(
      editor.onDidChangeSelection((sel) => {
        this.recent.focus(sel);
        this.scheduleContext();
      }),
      editor.onDidChangeWorkspaceFolders(() => {
        this.writeDiscovery().catch((err: unknown) =>
          this.opts.logger.warn(`Gemini IDE server: could not update the discovery file: ${errorMessage(err)}`),
        );
      }),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = this.disposed
      ? ({ ok: false, status: 403, reason: 'closing' } as const)
      : checkLoopbackAccess(req, bearer(req), this.token, this.port);
    if (!verdict.ok) {
      this.refusals.log(
        `Gemini IDE server: refused a request from ${req.socket.remoteAddress ?? '?'}: ${verdict.reason}`,
      );
      res.writeHead(verdict.status, { 'Content-Type': 'text/plain', Connection: 'close' });
      res.end(verdict.status === 401 ? 'Unauthorized' : 'Forbidden');
      return;
    }
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not Found');
      return;
    }
    let body: Buffer | undefined;
    if (req.method === 'POST') {
      try {
        body = await readBody(req, this.opts.maxBodyBytes ?? 32 * 1024 * 1024);
      } catch (err) {
        if (err instanceof BodyTooLarge) jsonError(res, 413, err.message, true);
        else res.destroy();
        return;
      }
    }
    const sid = req.headers[SESSION_HEADER];
    let session = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
    if (typeof sid === 'string' && !session) {
      // 404 tells a Streamable HTTP client its session is gone and it should initialize again.
      jsonError(res, 404, 'Session not found');
      return;
    }
    if (!session) {
      if (req.method !== 'POST' || firstMethod(body) !== 'initialize') {
        jsonError(res, 400, 'Bad Request: no valid session ID for a request other than initialize');
        return;
      }
      session = await this.openSession();
      if (!session) {
        jsonError(res, 503, 'Too many sessions with open streams');
        return;
      }
    }
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const response = await session.transport.handleRequest(toWebRequest(req, this.port, body, abort.signal));
    if (session.id === undefined) {
      // The initialize failed: nothing refers to this session.
      void session.mcp.close().catch(() => undefined);
    }
    const isStream =
      req.method === 'GET' && response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const sending = sendWebResponse(res, response);
    if (isStream) this.streamOpened(session, res);
    await sending;
    if (!session.listedTools && response.ok && firstMethod(body) === 'tools/list') {
      session.listedTools = true;
      if (session.streams > 0) this.agentCountChanged('connected');
    }
  }

  private agentCountChanged(what: 'connected' | 'disconnected'): void {
    const n = this.clientCount();
    this.opts.logger.info(`Gemini IDE server: agent ${what} (${n} ${what === 'connected' ? 'total' : 'left'})`);
    if (!this.disposed) this.changed.fire();
  }

  private async openSession(): Promise<Session | undefined> {
    const max = this.opts.limits?.maxSessions ?? 64;
    if (this.sessions.size >= max) {
      // Gemini CLI never ends its session; the ones without a stream are agents that went away.
      const idle = [...this.sessions.values()].find((s) => s.streams === 0);
      if (!idle) return undefined;
      await this.closeSession(idle);
    }
    const mcp = new McpServer(this.opts.serverInfo ?? { name: 'mcp-host-gemini-ide', version: VERSION }, {
      capabilities: { tools: {} },
    });
    const session: Session = {
      mcp,
      streams: 0,
      listedTools: false,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          session.id = id;
          this.sessions.set(id, session);
        },
        onsessionclosed: () => void this.closeSession(session),
        maxRequestBodySize: this.opts.maxBodyBytes ?? 32 * 1024 * 1024,
      }),
    };
    registerGeminiTools(session.mcp, this.opts.editor, this.diffs, session);
    mcp.server.oninitialized = () => {
      const info = mcp.server.getClientVersion();
      this.opts.logger.info(`Gemini IDE server: agent initialized (${info?.name ?? '?'} ${info?.version ?? ''})`);
    };
    mcp.server.onerror = (err) => this.opts.logger.debug(`Gemini IDE server: ${err.message}`);
    await mcp.connect(session.transport);
    return session;
  }

  private async closeSession(session: Session): Promise<void> {
    if (session.id !== undefined && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    this.diffs.closeAll(session);
    await session.mcp.close().catch(() => undefined);
  }

  private streamOpened(session: Session, res: ServerResponse): void {
    session.streams++;
    if (session.streams === 1 && session.listedTools) this.agentCountChanged('connected');
    res.once('close', () => {
      session.streams--;
      if (session.streams === 0 && session.listedTools) this.agentCountChanged('disconnected');
    });
    // The companion sends the context as soon as the stream is there; the CLI reads it for its first prompt.
    this.notify(session, 'ide/contextUpdate', this.recent.snapshot());
  }

  private scheduleContext(): void {
    clearTimeout(this.contextTimer);
    this.contextTimer = setTimeout(() => {
      const ctx = this.recent.snapshot();
      for (const s of this.sessions.values()) this.notify(s, 'ide/contextUpdate', ctx);
    }, this.opts.contextDebounceMs ?? 50);
    this.contextTimer.unref();
  }

  private notify(session: Session, method: string, params: object): void {
    // Gemini CLI's notifications are not MCP methods, so they go to the transport directly (on the GET stream).
    session.transport.send({ jsonrpc: '2.0', method, params: { ...params } }).catch(() => {
      // A closing stream; its close handler accounts for it.
    });
  }
}
