/**
 * One connection attempt: transport + SDK Client + initialize, bounded by the connect timeout and
 * abortable (stop/restart during connect), then the advertised lists fetched page by page.
 * The transport is always closed when the attempt fails, so no process outlives a failed attempt.
 */
import type { Client } from '@modelcontextprotocol/client';
import { HostClient } from './host-client.js';
import type {
  ClientCapabilities,
  PriorDiscovery,
  Transport,
  Prompt,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { RemoteServerConfig, ServerDefinition } from '../config/types.js';
import { systemClock, type Clock, type Disposable, type Logger } from '../ports.js';
import { describeTarget } from '../config/describe.js';
import { redactKnownValues, redactString, redactUrl, secretValuesOf } from '../redact.js';
import { HostError, errorMessage, isConnectionClosed, isTerminalNetworkError, isUnauthorized } from './errors.js';
import type { StdioProcessTransport } from './stdio-transport.js';
import { FrameChannel } from './frame-channel.js';
import type { CreatedTransport, TransportContext } from './transports.js';
import { HEADERS_HELPER_TIMEOUT_MS, headersHelperFor, type HeadersHelperSession } from './headers-helper.js';
import { sanitizeInstructions, sanitizeLabel } from '../capabilities/index.js';
import { hostJsonSchemaValidator } from '../capabilities/sdk-validator.js';
import type { ConnectionState } from './state.js';
import { LEGACY_PROTOCOL_VERSION, type ProtocolEra } from './era.js';

/** What the launch gives its attempt (launch.ts): its log, the client's name, and how to make a transport. */
export interface AttemptLaunch {
  readonly log: Logger;
  readonly clientInfo: { name: string; version: string };
  /** The transport for the definition (the real one, or the test port's: HostOptions.transportFor). */
  transport(def: ServerDefinition, wrapFetch: TransportContext['wrapFetch']): CreatedTransport;
}

/** How `initialize` goes: probe the era (`{}`), or trust a remembered verdict (`{ prior }`). */
export interface Handshake {
  prior?: PriorDiscovery;
}

/** What an attempt asks of its launch's plugins before it connects (LaunchPlugins, launch-plugin.ts). */
export interface AttemptPlugins {
  handshake(): Handshake | undefined;
  wrapTransport(transport: Transport, def: ServerDefinition): Transport;
  capabilities(): ClientCapabilities;
  setupClient(client: HostClient): void;
}

/** One attempt: the launch it belongs to, that launch's plugins, and its bounds. */
export interface ConnectOptions {
  launch: AttemptLaunch;
  plugins: AttemptPlugins;
  timeoutMs: number;
  signal: AbortSignal;
  /** The connect timer runs on it (a fake one in tests); default: the system clock. */
  clock?: Clock;
}

/** A live connection. */
export interface LiveConnection {
  client: Client;
  transport: Transport;
  /** The same transport, for requests the gateway forwards as frames (frame-channel.ts). */
  frames?: FrameChannel;
  stdio?: StdioProcessTransport;
  connectMs: number;
  /** The protocol revision this connection speaks, and its era. */
  protocolVersion: string;
  era: ProtocolEra;
  /** True once the transport closed (for whatever reason); set by the launch that watches it (launch.ts). */
  closed: boolean;
  /** Modern era: settles once the change-notification stream is open (or failed and retries; listen.ts). */
  listening: Promise<void>;
  /** Set once the connection closed; says why, for calls that were running. */
  closedBecause?: string;
  close(): Promise<void>;
}

/** Outcome of a failed attempt: needs-auth is a state of its own, not a failure to retry. */
export class NeedsAuthError extends Error {}

/**
 * Turns whatever an attempt threw into an error that says what happened and what to do. The text
 * ends up in the server's state, logs and CLI output, and HTTP clients repeat raw URLs (with their
 * credentials) and header values in theirs: it is redacted here, once, for all of them.
 */
export function connectError(err: unknown, def: ServerDefinition, stdio: StdioProcessTransport | undefined): Error {
  const e = describeError(err, def, stdio);
  const clean = (text: string) => redactString(redactKnownValues(text, secretValuesOf(def.config)));
  if (e instanceof HostError) {
    const message = clean(e.message);
    return message === e.message
      ? e
      : new HostError(e.code, message, e.hint === undefined ? undefined : clean(e.hint), { cause: e.cause });
  }
  if (e instanceof NeedsAuthError) return new NeedsAuthError(clean(e.message));
  return e;
}

function describeError(err: unknown, def: ServerDefinition, stdio: StdioProcessTransport | undefined): Error {
  if (err instanceof HostError && err.code !== 'connection-closed') return err;
  if (isUnauthorized(err)) return new NeedsAuthError(`${def.name} needs authentication: ${errorMessage(err)}`);
  if (stdio && (stdio.exit || stdio.hungUp || isConnectionClosed(err) || err instanceof HostError)) {
    return new HostError(
      'server-exited',
      `${def.name} ${stdio.describeExit()}`,
      'The server quit before finishing initialization; check the command, its arguments and the server log.',
      { cause: err },
    );
  }
  if (def.config.type !== 'stdio' && def.config.type !== 'inprocess' && isTerminalNetworkError(err)) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return new HostError(
      'connect-failed',
      `could not reach ${redactUrl(def.config.url)}: ${errorMessage(err)}${cause ? ` (${cause})` : ''}`,
      'Is the server running and the URL right?',
      { cause: err },
    );
  }
  return new HostError(
    'connect-failed',
    `${def.name} (${describeTarget(def.config)}) failed to connect: ${errorMessage(err)}`,
    undefined,
    { cause: err },
  );
}

/** A stdio server that exited (or closed stdout) while its era was being probed. */
function quitOnProbe(e: Error, era: Handshake | undefined, o: ConnectOptions): boolean {
  return era !== undefined && !era.prior && !o.signal.aborted && e instanceof HostError && e.code === 'server-exited';
}

async function closeQuietly(t: Transport): Promise<void> {
  try {
    await t.close();
  } catch {
    // Closing a half-open transport may throw; nothing to do about it.
  }
}

/** The definition with the helper's first headers merged in (also for the WebSocket upgrade and for redaction). */
async function withHelperHeaders(def: ServerDefinition, helper: HeadersHelperSession): Promise<ServerDefinition> {
  const headers = await helper.start();
  const c = def.config as RemoteServerConfig;
  return { ...def, config: { ...c, headers: { ...c.headers, ...headers } } };
}

export async function openConnection(def: ServerDefinition, o: ConnectOptions): Promise<LiveConnection> {
  return openWith(def, o, o.plugins.handshake());
}

/** A fresh transport and client, each plugin hooked in (launch-plugin.ts), ready to connect. */
function prepare(def: ServerDefinition, o: ConnectOptions, era: Handshake | undefined, helper?: HeadersHelperSession) {
  const created = o.launch.transport(def, helper ? (f) => helper.wrap(f) : undefined);
  // Outermost, so the gateway's frames pass every wrapper the plugins made (frame-channel.ts).
  const transport = new FrameChannel(o.plugins.wrapTransport(created.transport, def));
  const client = new HostClient(o.launch.clientInfo, {
    jsonSchemaValidator: hostJsonSchemaValidator,
    capabilities: o.plugins.capabilities(),
    ...(era ? { versionNegotiation: { mode: 'auto' as const } } : {}),
  });
  client.sendsToolHeaders = def.config.type === 'http';
  o.plugins.setupClient(client);
  return { created, transport, client };
}

async function openWith(def: ServerDefinition, o: ConnectOptions, era: Handshake | undefined): Promise<LiveConnection> {
  const started = Date.now();
  // Bounded by the connect timeout too: a server with a short "timeout" must not wait 10 s for its helper.
  const helper = headersHelperFor(def, { timeoutMs: Math.min(HEADERS_HELPER_TIMEOUT_MS, o.timeoutMs) });
  if (helper) def = await withHelperHeaders(def, helper);
  const { created, transport, client } = prepare(def, o, era, helper);
  const { stdio } = created;

  let timer: Disposable | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = (o.clock ?? systemClock).setTimeout(() => {
      reject(
        new HostError(
          'connect-timeout',
          `${def.name} did not finish connecting within ${o.timeoutMs} ms`,
          'Raise the server\'s "timeout" or MCP_TIMEOUT if it is just slow to start.',
        ),
      );
    }, o.timeoutMs);
    onAbort = () => reject(new HostError('stopped', `${def.name} was stopped while connecting`));
    if (o.signal.aborted) onAbort();
    else o.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([
      (async () => {
        await created.beforeConnect?.();
        await client.connect(transport, {
          timeout: o.timeoutMs,
          signal: o.signal,
          ...(era?.prior ? { prior: era.prior } : {}),
        });
      })(),
      guard,
    ]);
  } catch (err) {
    await closeQuietly(transport);
    const e = connectError(err, def, stdio);
    if (!quitOnProbe(e, era, o)) throw e;
    // Some stdio servers quit on a method they do not know instead of answering an error: the
    // probe killed this one, so a fresh process gets `initialize` only (and the caller remembers legacy).
    o.launch.log.info(`${def.name} quit on the server/discover probe; starting it again with initialize only`);
    return openWith(def, o, { prior: { kind: 'legacy' } });
  } finally {
    timer?.dispose();
    if (onAbort) o.signal.removeEventListener('abort', onAbort);
  }
  guard.catch(() => {});
  // Sent before the lists are asked for, so a change right after connecting is not missed.
  const listening = client.startListening({
    log: o.launch.log,
    clock: o.clock ?? systemClock,
    timeoutMs: o.timeoutMs,
  });
  const conn: LiveConnection = {
    client,
    transport,
    frames: transport,
    stdio,
    connectMs: Date.now() - started,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? LEGACY_PROTOCOL_VERSION,
    era: client.getProtocolEra() ?? 'legacy',
    closed: false,
    listening,
    close: async () => {
      await closeQuietly(transport);
      // Close the client too so its pending requests are rejected even if the transport's onclose is late.
      await client.close().catch(() => {});
    },
  };
  // `closed` is set by the launch, whose handlers (installed in setupClient) are the client's only ones.
  return conn;
}

/** Everything a server advertised, fetched page by page. */
export interface ServerLists {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  prompts: Prompt[];
}

const MAX_PAGES = 1000;

async function paged<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  // A server that keeps returning cursors must not loop forever.
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await fetchPage(cursor);
    out.push(...r.items);
    if (!r.nextCursor || r.nextCursor === cursor) break;
    cursor = r.nextCursor;
  }
  return out;
}

export type ListKind = keyof ServerLists;

/** Fetches one list if the server advertises it; an error is logged and yields an empty list. */
export async function fetchList(
  client: Client,
  kind: ListKind,
  timeoutMs: number,
  log: Logger,
  rethrowAuth = false,
): Promise<ServerLists[ListKind]> {
  const caps: ServerCapabilities = client.getServerCapabilities() ?? {};
  // Not into the SDK's response cache unless it reads the list from there (HostClient.keepsListInSdkCache).
  const keep = client instanceof HostClient && client.keepsListInSdkCache(kind);
  const opts = { timeout: timeoutMs, ...(keep ? {} : { cacheMode: 'bypass' as const }) };
  try {
    switch (kind) {
      case 'tools':
        if (!caps.tools) return [];
        return await paged(async (cursor) => {
          const r = await client.listTools(cursor ? { cursor } : undefined, opts);
          return { items: r.tools, nextCursor: r.nextCursor };
        });
      case 'resources':
        if (!caps.resources) return [];
        return await paged(async (cursor) => {
          const r = await client.listResources(cursor ? { cursor } : undefined, opts);
          return { items: r.resources, nextCursor: r.nextCursor };
        });
      case 'resourceTemplates':
        if (!caps.resources) return [];
        return await paged(async (cursor) => {
          const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, opts);
          return { items: r.resourceTemplates, nextCursor: r.nextCursor };
        });
      case 'prompts':
        if (!caps.prompts) return [];
        return await paged(async (cursor) => {
          const r = await client.listPrompts(cursor ? { cursor } : undefined, opts);
          return { items: r.prompts, nextCursor: r.nextCursor };
        });
    }
  } catch (err) {
    // A server may let `initialize` through and want a token for its lists: that is needs-auth, not an empty list.
    if (rethrowAuth && isUnauthorized(err)) throw new NeedsAuthError(errorMessage(err));
    log.warn(`listing ${kind} failed: ${errorMessage(err)}`);
    return [];
  }
  return [];
}

export async function fetchLists(client: Client, timeoutMs: number, log: Logger): Promise<ServerLists> {
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    fetchList(client, 'tools', timeoutMs, log, true) as Promise<Tool[]>,
    fetchList(client, 'resources', timeoutMs, log, true) as Promise<Resource[]>,
    fetchList(client, 'resourceTemplates', timeoutMs, log, true) as Promise<ResourceTemplateType[]>,
    fetchList(client, 'prompts', timeoutMs, log, true) as Promise<Prompt[]>,
  ]);
  return { tools, resources, resourceTemplates, prompts };
}

/** The `connected` state of a fresh connection: what the server said about itself in initialize. */
export function connectedState(name: string, conn: LiveConnection, now: number): ConnectionState {
  const client = conn.client;
  const info = client.getServerVersion();
  const instructions = sanitizeInstructions(client.getInstructions());
  return {
    kind: 'connected',
    // What a server says about itself is shown in tooltips and details: one clean line each.
    serverInfo: {
      name: typeof info?.name === 'string' ? sanitizeLabel(info.name) : name,
      version: typeof info?.version === 'string' ? sanitizeLabel(info.version) : '',
      ...(typeof info?.title === 'string' && info.title ? { title: sanitizeLabel(info.title) } : {}),
    },
    capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    ...(instructions !== undefined ? { instructions } : {}),
    connectedAt: now,
    connectMs: conn.connectMs,
    protocolVersion: conn.protocolVersion,
  };
}
