/**
 * Per-server protocol traces: which servers are traced, a bounded ring buffer of records for each,
 * and an optional sink every record also goes to (the CLI's `--trace FILE`). The host calls
 * `attach` for every new transport; whether a message is kept is decided when it passes, so
 * turning tracing on or off needs no reconnect.
 */
import type { Transport } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../config/types.js';
import { Emitter } from '../events.js';
import { SETTING_DEFAULTS } from '../setting-defaults.js';
import { secretValuesOf } from '../redact.js';
import { RingBuffer } from './ring.js';
import { RequestPairer, makeRecord, redactMessage, type TraceRecord } from './record.js';
import { traceTransport } from './transport.js';
import { framePath, type PathCounts } from './fast-frames.js';

export const DEFAULT_TRACE_CAPACITY: number = SETTING_DEFAULTS['trace.capacity'];

export interface TraceHubOptions {
  /** Records kept per server (oldest dropped first). */
  capacity?: number;
  /** Servers traced from the start; `'*'` traces every server. */
  enabled?: readonly string[] | '*';
  /** Receives every record as it is made (after redaction). */
  sink?: (record: TraceRecord) => void;
  now?: () => number;
}

export interface InitializeInfo {
  at: number;
  result: {
    protocolVersion: string;
    capabilities?: Record<string, unknown>;
    serverInfo?: Record<string, unknown>;
    instructions?: string;
  };
}

export class TraceHub {
  private readonly buffers = new Map<string, RingBuffer<TraceRecord>>();
  private readonly initialized = new Map<string, InitializeInfo>();
  private readonly pathCounts = new Map<string, PathCounts>();
  private all: boolean;
  private readonly on = new Set<string>();
  private readonly capacity: number;
  private readonly now: () => number;
  private readonly emitter = new Emitter<TraceRecord>();
  /** Fires for every record kept (the trace view refreshes on it). */
  readonly onDidRecord = this.emitter.event;
  private readonly enabledEmitter = new Emitter<string | undefined>();
  /** Fires with a server name, or undefined when the whole set changed. */
  readonly onDidChangeEnabled = this.enabledEmitter.event;

  constructor(private readonly options: TraceHubOptions = {}) {
    this.capacity = options.capacity ?? DEFAULT_TRACE_CAPACITY;
    this.now = options.now ?? Date.now;
    this.all = options.enabled === '*';
    if (Array.isArray(options.enabled)) for (const n of options.enabled) this.on.add(n);
  }

  isEnabled(server: string): boolean {
    return this.all || this.on.has(server);
  }

  setEnabled(server: string, enabled: boolean): void {
    if (enabled) this.on.add(server);
    else this.on.delete(server);
    this.enabledEmitter.fire(server);
  }

  /** Replaces the traced set (from a setting). */
  setEnabledServers(servers: readonly string[] | '*'): void {
    this.all = servers === '*';
    this.on.clear();
    if (servers !== '*') for (const n of servers) this.on.add(n);
    this.enabledEmitter.fire(undefined);
  }

  /** The last `initialize` result of a server (redacted), traced or not. */
  initializeResult(server: string): InitializeInfo | undefined {
    return this.initialized.get(server);
  }

  /**
   * The `tools/call`, `resources/read` and `prompts/get` requests sent to `server` since the hub
   * started, by the path they took (fast-frames.ts), traced or not.
   */
  paths(server: string): PathCounts {
    return { ...(this.pathCounts.get(server) ?? { fast: 0, full: 0 }) };
  }

  records(server: string): TraceRecord[] {
    return this.buffers.get(server)?.toArray() ?? [];
  }

  /** Records dropped from a server's buffer to stay within capacity. */
  dropped(server: string): number {
    return this.buffers.get(server)?.dropped ?? 0;
  }

  clear(server: string): void {
    this.buffers.get(server)?.clear();
  }

  /** Wraps a fresh transport of `def`; the host uses the returned one. */
  attach(def: ServerDefinition, transport: Transport): Transport {
    const pairer = new RequestPairer();
    // Literal values a trace must never show: the server's env and header values (record.ts skips
    // very short ones, too common to hide without mangling the trace).
    const secrets = secretValuesOf(def.config);
    return traceTransport(transport, (direction, msg) => {
      const result = direction === 'in' ? (msg as { result?: { protocolVersion?: unknown } }).result : undefined;
      // Kept whether or not the server is traced: the details view shows the negotiated version.
      if (result && typeof result.protocolVersion === 'string')
        this.initialized.set(def.name, {
          at: this.now(),
          result: redactMessage(result, secrets) as InitializeInfo['result'],
        });
      const path = direction === 'out' ? framePath(msg) : undefined;
      if (path) {
        let counts = this.pathCounts.get(def.name);
        if (!counts) this.pathCounts.set(def.name, (counts = { fast: 0, full: 0 }));
        counts[path]++;
      }
      if (!this.isEnabled(def.name)) return;
      const rec = makeRecord(def.name, direction, msg, this.now(), pairer, secrets);
      let buf = this.buffers.get(def.name);
      if (!buf) this.buffers.set(def.name, (buf = new RingBuffer<TraceRecord>(this.capacity)));
      buf.push(rec);
      this.options.sink?.(rec);
      this.emitter.fire(rec);
    });
  }

  dispose(): void {
    this.emitter.dispose();
    this.enabledEmitter.dispose();
  }
}
