/**
 * The host: the map and order of servers (one `ServerEntry` each, see server-entry.ts, each with
 * its `ServerConnection`), the two connect pools (local, remote) side by side, the definition
 * diff, `whenSettled` and the change events. Front ends observe it and ask; `createHost`
 * (src/core/host.ts) makes one.
 */
import type {
  CallToolResult,
  Client,
  GetPromptResult,
  ReadResourceResult,
  RequestOptions,
} from '@modelcontextprotocol/client';
import * as z from 'zod/v4';
import type {
  CallOptions,
  HostOptions,
  PromptGetResult,
  ResourceReadResult,
  ServerChangeEvent,
  ServerSnapshot,
  ToolCallResult,
} from '../host-api.js';
import { toPromptGetResult, toResourceReadResult, toToolCallResult } from '../capabilities/index.js';
import { runs } from '../config/admit.js';
import type { ServerDefinition } from '../config/types.js';
import { Emitter } from '../events.js';
import { ClientFeatures } from '../features/index.js';
import type { Event } from '../events.js';
import type { Clock, Disposable } from '../ports.js';
import { systemClock } from '../ports.js';
import { HostError, errorMessage } from './errors.js';
import type { LiveConnection } from './connect.js';
import { Pool } from './pool.js';
import { ServerEntry } from './server-entry.js';
import type { ServerContext } from './server-context.js';
import { EraVerdicts, memoryStore } from './era.js';
import type { LaunchPluginFactory } from './launch-plugin.js';
import { appUiPlugin } from './plugins/app-ui.js';
import { clientFeaturesPlugin } from './plugins/client-features.js';
import { eraPlugin } from './plugins/era.js';
import { tracePlugin } from './plugins/trace.js';
import { requestOptions } from './requests.js';
import { forwardPrompt, forwardResourceRead } from './forward-request.js';
import { callToolOn, type ToolCallDeps } from './tool-call.js';
import { isRemote, readSettings, toolTimeoutFor, withToolTimeout, type ConnectionSettings } from './settings.js';
import { VERSION } from '../version.js';
import { prewarmSandboxFor } from '../sandbox/spawn.js';

/** Any JSON object: a free-form request's result is shown to the user as it came. */
// Built on first use: zod waits in sdk.js until a server connects (scripts/lib/deferred-modules.mjs).
let anyResultSchema: z.ZodObject | undefined;
const anyResult = (): z.ZodObject => (anyResultSchema ??= z.looseObject({}));

/** What plugs into every launch of every server (launch-plugin.ts), in the order their hooks run. */
function hostPlugins(options: HostOptions, features: ClientFeatures, clock: Clock): LaunchPluginFactory[] {
  const plugins: LaunchPluginFactory[] = [clientFeaturesPlugin(features, options)];
  if (options.apps) plugins.push(appUiPlugin());
  // Without negotiation every connection stays on 2025-11-25.
  if (options.eraNegotiation !== 'legacy')
    plugins.push(eraPlugin(new EraVerdicts(options.eraStore ?? memoryStore(), clock)));
  if (options.wrapTransport) plugins.push(tracePlugin(options.wrapTransport));
  return plugins;
}

/** A change of the definition or of its admission restarts (or stops) the server. */
function diffKey(def: ServerDefinition): string {
  return `${def.hash}#${runs(def) ? 'run' : 'held'}`;
}

export class McpHost {
  private readonly emitter = new Emitter<ServerChangeEvent>();
  readonly onDidChangeServer: Event<ServerChangeEvent> = this.emitter.event;
  private readonly entries = new Map<string, ServerEntry>();
  private order: string[] = [];
  private readonly localPool: Pool;
  private readonly remotePool: Pool;
  private readonly ctx: ServerContext;
  /** Sampling, logging, ping, tasks, subscriptions: the running tasks and resource listeners. */
  readonly features: ClientFeatures;
  private settledWaiters: (() => void)[] = [];
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;

  constructor(private readonly options: HostOptions) {
    const settings: ConnectionSettings = readSettings(options);
    this.localPool = new Pool(settings.localConcurrency);
    this.remotePool = new Pool(settings.remoteConcurrency);
    const clock: Clock = options.clock ?? systemClock;
    this.features = new ClientFeatures(options.features ?? {}, clock);
    this.ctx = {
      settings,
      clock,
      options,
      clientInfo: options.clientInfo ?? { name: 'mcp-host', version: VERSION },
      plugins: hostPlugins(options, this.features, clock),
      poolFor: (def) =>
        def.config.type === 'inprocess' ? undefined : isRemote(def.config) ? this.remotePool : this.localPool,
      takenNames: (except) => {
        const taken = new Set<string>();
        for (const other of this.entries.values())
          if (other !== except) for (const t of other.tools) taken.add(t.qualifiedName);
        return taken;
      },
      changed: (server) => {
        if (this.entries.get(server.name) === server)
          this.emitter.fire({ name: server.name, snapshot: server.snapshot() });
        this.checkSettled();
      },
      attemptEnded: () => this.checkSettled(),
    };
    if (options.roots) {
      this.subscriptions.push(
        options.roots.onDidChange(() => {
          for (const e of this.entries.values())
            e.live?.client
              .sendRootsListChanged()
              .catch((err) => e.log.debug(`roots/list_changed not sent: ${errorMessage(err)}`));
        }),
      );
    }
  }

  /**
   * New concurrency and timeouts (the editor settings changed): pools resize at once, timeouts apply
   * to the next attempt and the next call. The MCP_* environment overrides still win.
   */
  updateSettings(s: Pick<HostOptions, 'concurrency' | 'timeouts'>): void {
    // Same object: every server object reads its settings through ctx at the moment it needs them.
    Object.assign(this.ctx.settings, readSettings({ ...this.options, ...s }));
    this.localPool.resize(this.ctx.settings.localConcurrency);
    this.remotePool.resize(this.ctx.settings.remoteConcurrency);
  }

  // ---- observation -------------------------------------------------------------------------

  /** Current servers, in config order. */
  servers(): ServerSnapshot[] {
    return this.order.map((n) => this.entries.get(n)!.snapshot());
  }

  server(name: string): ServerSnapshot | undefined {
    return this.entries.get(name)?.snapshot();
  }

  /** Recent stderr of a stdio server (bounded), also after it exited. */
  recentStderr(name: string): string {
    return this.entries.get(name)?.recentStderr() ?? '';
  }

  /** Pid of a stdio server's process while it runs. */
  pid(name: string): number | undefined {
    return this.entries.get(name)?.live?.stdio?.pid;
  }

  /** Resolves when every server has settled (connected, failed, needs-auth or disabled). */
  whenSettled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private isSettled(): boolean {
    for (const e of this.entries.values()) if (e.busy) return false;
    return true;
  }

  private checkSettled(): void {
    if (this.settledWaiters.length === 0 || !this.isSettled()) return;
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const w of waiters) w();
  }

  // ---- definitions -------------------------------------------------------------------------

  /**
   * Replaces the set of definitions: added servers start (unless disabled), removed ones stop,
   * ones whose `hash` changed restart, unchanged ones are left alone.
   */
  setDefinitions(defs: ServerDefinition[]): void {
    if (this.disposed) throw new Error('the host has been disposed');
    const seen = new Set<string>();
    const next: ServerDefinition[] = [];
    for (const d of defs) {
      if (seen.has(d.name)) {
        this.options.logger.warn(`server "${d.name}" is defined twice; using the first definition`);
        continue;
      }
      seen.add(d.name);
      next.push(d);
    }
    for (const [name, e] of this.entries) {
      if (!seen.has(name)) {
        this.entries.delete(name);
        void e.remove();
        this.emitter.fire({ name, snapshot: undefined });
      }
    }
    this.order = next.map((d) => d.name);
    prewarmSandboxFor(next, this.options.sandbox);
    for (const def of next) {
      const e = this.entries.get(def.name);
      if (!e) {
        const server = new ServerEntry(def, this.ctx);
        this.entries.set(def.name, server);
        server.begin();
      } else if (diffKey(e.def) !== diffKey(def)) {
        e.update(def, true);
      } else if (JSON.stringify(e.def.admission) !== JSON.stringify(def.admission)) {
        // Held for another reason now (e.g. not approved → disabled here): show the new one.
        e.update(def, false);
      }
    }
    this.checkSettled();
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  start(name: string): Promise<void> {
    return this.entry(name).start();
  }

  stop(name: string): Promise<void> {
    return this.entry(name).stop();
  }

  restart(name: string): Promise<void> {
    return this.entry(name).restart();
  }

  /** Stops every server and kills every process tree. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.remove()));
    for (const w of this.settledWaiters) w();
    this.settledWaiters = [];
    this.emitter.dispose();
  }

  private entry(name: string): ServerEntry {
    if (this.disposed) throw new HostError('stopped', 'the host has been disposed');
    const e = this.entries.get(name);
    if (!e) {
      const known = this.order.length ? this.order.join(', ') : '(none)';
      throw new HostError('unknown-server', `unknown server "${name}"; known servers: ${known}`);
    }
    return e;
  }

  // ---- using -------------------------------------------------------------------------------

  /**
   * The deadline the host gives a request to `server` that names none: a tool call's is the entry's
   * `toolTimeout` first, as in `callTool`; anything else's MCP_TOOL_TIMEOUT / the setting. For a
   * peer that sends a server requests over a client of its own (the team gateway's per-user ones).
   */
  defaultTimeoutMs(server: string, toolCall: boolean): number {
    return toolCall
      ? toolTimeoutFor(this.entry(server).def.config, this.ctx.settings)
      : this.ctx.settings.toolTimeoutMs;
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    callOpts?: CallOptions,
  ): Promise<ToolCallResult> {
    return await this.onTool(server, tool, callOpts, async (e, conn, opts) => {
      const started = this.ctx.clock.now();
      const raw = await callToolOn(this.toolCallDeps(), e, conn, tool, args, opts, false);
      return await toToolCallResult(raw, this.ctx.clock.now() - started, this.options.blobDir);
    });
  }

  /**
   * A tool call for a peer that speaks MCP itself (the gateway): the same checks, timeout, origin
   * and in-flight record as `callTool`, but the result is the server's wire result, not the host's
   * shape (blobs moved to files) the peer would turn back. A plain call on a 2025-11-25 connection
   * also skips the SDK's parse of the result: the peer's own client checks what reaches it, and an
   * era-2026 connection keeps the SDK's handling of `input_required` and header mirroring.
   */
  async forwardToolCall(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    callOpts?: CallOptions,
  ): Promise<CallToolResult> {
    return await this.onTool(server, tool, callOpts, (e, conn, opts) =>
      callToolOn(this.toolCallDeps(), e, conn, tool, args, opts, true),
    );
  }

  /** The head callTool and forwardToolCall share: the server's entry, the tool timeout, `use`. */
  private onTool<T>(
    server: string,
    tool: string,
    callOpts: CallOptions | undefined,
    run: (e: ServerEntry, conn: LiveConnection, opts: CallOptions & { timeoutMs: number }) => Promise<T>,
  ): Promise<T> {
    const e = this.entry(server);
    const opts = withToolTimeout(callOpts, e.def.config, this.ctx.settings);
    return e.use(`tool ${tool}`, opts, (conn, left) => run(e, conn, left ?? opts));
  }

  private toolCallDeps(): ToolCallDeps {
    return { features: this.features, toolTimeoutMs: this.ctx.settings.toolTimeoutMs };
  }

  private requestOptions(opts: CallOptions | undefined): RequestOptions & { timeout: number } {
    return requestOptions(opts, this.ctx.settings.toolTimeoutMs);
  }

  /**
   * Runs `op` with the server's live SDK client (connecting first if needed), with the same
   * error handling as calls: for the protocol features in src/core/features.
   */
  withClient<T>(server: string, what: string, op: (client: Client) => Promise<T>, opts?: CallOptions): Promise<T> {
    return this.entry(server).use(what, opts, (conn) => op(conn.client));
  }

  /** Sends any request (the Inspector's "Send Request"); the result is returned unchecked. */
  async request(
    server: string,
    method: string,
    params: Record<string, unknown> | undefined,
    opts?: CallOptions,
  ): Promise<unknown> {
    const e = this.entry(server);
    return e.use(method, opts, (conn, left) =>
      conn.client.request({ method, ...(params ? { params } : {}) } as never, anyResult(), this.requestOptions(left)),
    );
  }

  async readResource(server: string, uri: string, opts?: CallOptions): Promise<ResourceReadResult> {
    const e = this.entry(server);
    return e.use(`reading ${uri}`, opts, async (conn, left) =>
      toResourceReadResult(await conn.client.readResource({ uri }, this.requestOptions(left)), this.options.blobDir),
    );
  }

  /**
   * `resources/read` for a peer that speaks MCP itself (the gateway), as `forwardToolCall` is for
   * calls: the same entry, timeout, origin and in-flight record, the server's wire result (forward-request.ts).
   */
  async forwardResourceRead(server: string, uri: string, opts?: CallOptions): Promise<ReadResourceResult> {
    const e = this.entry(server);
    const t = this.ctx.settings.toolTimeoutMs;
    return e.use(`reading ${uri}`, opts, (conn, left) => forwardResourceRead(conn, uri, left, t));
  }

  /** `prompts/get` for the gateway, its wire result (forward-request.ts). */
  async forwardPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    opts?: CallOptions,
  ): Promise<GetPromptResult> {
    const e = this.entry(server);
    const t = this.ctx.settings.toolTimeoutMs;
    return e.use(`prompt ${name}`, opts, (conn, left) => forwardPrompt(conn, name, args, left, t));
  }

  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    opts?: CallOptions,
  ): Promise<PromptGetResult> {
    const e = this.entry(server);
    return e.use(`prompt ${name}`, opts, async (conn, left) =>
      toPromptGetResult(
        await conn.client.getPrompt({ name, arguments: args }, this.requestOptions(left)),
        this.options.blobDir,
      ),
    );
  }
}
