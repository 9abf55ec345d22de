/**
 * One running app: the official host bridge (`AppBridge` of `@modelcontextprotocol/ext-apps`)
 * on a pipe to the app's frame, with every request the app makes routed through the host's
 * rules. The bridge has no MCP client of its own: it can reach nothing but what is wired here
 * (its server's app-visible tools and resources, links after asking, logging, size, teardown).
 */
// The package is ESM only; this CommonJS build loads it with `import()` (esbuild inlines it).
import type {
  AppBridge,
  McpUiHostCapabilities,
  McpUiHostContext,
} from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import type { HostResource, HostTool, ResourceReadResult, ToolCallResult } from '../host-data.js';
import { errorMessage } from '../errors.js';
import { followSignal } from '../follow-signal.js';
import type { Logger } from '../ports.js';
import { boundedSize, checkAppLink, resolveAppToolCall } from './policy.js';
import { toWireReadResult, toWireToolResult } from './results.js';
import { loadAppBridge } from './load-bridge.js';
import type { MessagePipe } from './transport.js';
import { PipeTransport } from './transport.js';

/** What the front end does for an app; each method applies the host's usual rules. */
export interface AppHostPorts {
  /** The app's server's tools right now (they change when the server's list changes). */
  tools(): HostTool[];
  /** The app's server's resources right now. */
  resources(): HostResource[];
  /**
   * Runs a call the app asked for, exactly as a call from a person would run (per-tool
   * enablement, destructive confirmation, timeout, logging); throws to refuse.
   */
  callTool(tool: HostTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult>;
  readResource(uri: string, signal: AbortSignal): Promise<ResourceReadResult>;
  /** Asks the person, then opens the link; false when they declined. */
  openLink(url: URL): Promise<boolean>;
  /** The app's content size changed. */
  resize(size: { width?: number; height?: number }): void;
  /** The app asked to be closed. */
  requestClose(): void;
}

export interface AppSessionOptions {
  server: string;
  /** The tool whose result the app shows. */
  tool: HostTool;
  pipe: MessagePipe;
  ports: AppHostPorts;
  hostContext: McpUiHostContext;
  hostInfo: { name: string; version: string };
  /** The server's log. */
  log: Logger;
  /** How long `close` waits for the app to acknowledge teardown. */
  teardownTimeoutMs?: number;
}

export const APP_HOST_CAPABILITIES: McpUiHostCapabilities = {
  openLinks: {},
  serverTools: {},
  serverResources: {},
  logging: {},
};

/** The tool as the app sees it in `hostContext.toolInfo` (wire shape). */
function wireTool(t: HostTool): Record<string, unknown> & { name: string; inputSchema: { type: 'object' } } {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: { ...t.inputSchema, type: 'object' },
    annotations: t.annotations,
    ...(t.ui ? { _meta: { ui: t.ui } } : {}),
  };
}

export class AppSession {
  /** Creates the session with the official bridge (loaded on first use: apps are rare). */
  static async create(o: AppSessionOptions): Promise<AppSession> {
    const { AppBridge: Bridge } = await loadAppBridge();
    return new AppSession(o, (caps, options) => new Bridge(null, o.hostInfo, caps, options));
  }

  readonly bridge: AppBridge;
  private readonly transport: PipeTransport;
  private readonly closing = new AbortController();
  private initialized = false;
  private closed = false;
  private pending: (() => Promise<void>)[] = [];
  /** Resolves once the app finished its handshake (`ui/notifications/initialized`). */
  readonly ready: Promise<void>;

  private constructor(
    private readonly o: AppSessionOptions,
    makeBridge: (caps: McpUiHostCapabilities, options: { hostContext: McpUiHostContext }) => AppBridge,
  ) {
    this.transport = new PipeTransport(o.pipe);
    this.bridge = makeBridge(APP_HOST_CAPABILITIES, {
      hostContext: { ...o.hostContext, toolInfo: { tool: wireTool(o.tool) as never } },
    });
    let markReady: () => void = () => {};
    this.ready = new Promise<void>((resolve) => (markReady = resolve));
    this.bridge.oninitialized = () => {
      this.initialized = true;
      const queued = this.pending;
      this.pending = [];
      void (async () => {
        for (const send of queued)
          await send().catch((e: unknown) => o.log.warn(`app: could not deliver to the app: ${errorMessage(e)}`));
      })();
      markReady();
    };
    this.wire();
  }

  private wire(): void {
    const { o } = this;
    const b = this.bridge;
    b.oncalltool = async (params, extra) => {
      const t = resolveAppToolCall(o.server, o.ports.tools(), params.name);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      o.log.info(`app of ${o.tool.name} calls ${t.name}`);
      const signal = followSignal(extra.mcpReq.signal, this.closing.signal);
      const r = await o.ports.callTool(t, args, signal);
      return (await toWireToolResult(r)) as never;
    };
    b.onreadresource = async (params, extra) => {
      const signal = followSignal(extra.mcpReq.signal, this.closing.signal);
      return (await toWireReadResult(await o.ports.readResource(params.uri, signal))) as never;
    };
    b.onlistresources = async () => ({
      resources: o.ports.resources().map((r) => ({
        uri: r.uri,
        name: r.name,
        ...(r.title ? { title: r.title } : {}),
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      })),
    });
    b.onopenlink = async (params) => {
      const url = checkAppLink(params.url);
      o.log.info(`app of ${o.tool.name} asks to open ${url.origin}`);
      const opened = await o.ports.openLink(url);
      return opened ? {} : { isError: true };
    };
    b.onsizechange = (p) => o.ports.resize(boundedSize(p));
    b.onrequestteardown = () => o.ports.requestClose();
    b.onloggingmessage = (p) => {
      const text = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
      o.log.info(`app of ${o.tool.name} [${p.level}]: ${text.slice(0, 2000)}`);
    };
  }

  async start(): Promise<void> {
    await this.bridge.connect(this.transport);
  }

  /** Sends now if the app is ready, else once it is (the spec: input and result after `initialized`). */
  private whenReady(send: () => Promise<void>): void {
    if (this.closed) return;
    if (this.initialized)
      void send().catch((e: unknown) => this.o.log.warn(`app: could not deliver to the app: ${errorMessage(e)}`));
    else this.pending.push(send);
  }

  deliverInput(args: Record<string, unknown>): void {
    this.whenReady(() => this.bridge.sendToolInput({ arguments: args }));
  }

  deliverResult(r: ToolCallResult): void {
    this.whenReady(async () => this.bridge.sendToolResult((await toWireToolResult(r)) as never));
  }

  deliverCancelled(reason: string): void {
    this.whenReady(() => this.bridge.sendToolCancelled({ reason }));
  }

  /** Theme and other context changes; the bridge sends only what changed. */
  updateHostContext(ctx: McpUiHostContext): void {
    if (this.closed) return;
    this.bridge.setHostContext({ ...ctx, toolInfo: { tool: wireTool(this.o.tool) as never } });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Tears the app down: asks it to clean up (bounded wait; a hung app must not keep the panel),
   * aborts every call it still has running, and closes the bridge. `frameGone` when the frame is
   * already destroyed (panel closed), so there is nobody to ask.
   */
  async close(frameGone = false): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.closing.abort(new Error('the app was closed'));
    if (!frameGone && this.initialized) {
      await this.bridge.teardownResource({}, { timeout: this.o.teardownTimeoutMs ?? 2000 }).catch(() => {});
    }
    await this.bridge.close().catch(() => {});
  }
}
