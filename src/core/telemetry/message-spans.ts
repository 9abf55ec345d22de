/**
 * One MCP connection's telemetry, as a tap on its transport (trace/transport.ts `TransportTap`):
 * a request read is a SERVER span, its parent the trace context the sender put in `params._meta`,
 * and its handler runs inside that span's context, so what the handler sends on (the gateway's
 * upstream call) is the span's child; a request written is a CLIENT span, child of the context
 * active then, whose context goes out in the request's `_meta`. The answer with the same id ends
 * the span and records its duration (`mcp.server.operation.duration` or
 * `mcp.client.operation.duration`); the connection's end records the session's. Working on the
 * wire keeps this independent of how the gateway answers a call. Pings are not recorded: they
 * are the connection's heartbeat, not anyone's work. The `_meta` keys are the propagator's fields:
 * W3C's `traceparent`, `tracestate` (and `baggage`), the SDK's TRACEPARENT_META_KEY and
 * TRACESTATE_META_KEY, unprefixed as SEP-414 and the conventions say.
 */
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { TransportTap } from '../trace/transport.js';
import { redactString } from '../redact.js';
import {
  ATTR,
  CANCELLED,
  CONNECTION_CLOSED,
  outcomeOf,
  requestFacts,
  statedVersion,
  wireAttributes,
  type WireKind,
} from './semconv.js';
import type { TelemetryInstruments } from './instruments.js';

/** Requests followed at once per connection; beyond, new ones are not recorded (a peer that never answers). */
const MAX_PENDING = 4096;

interface Pending {
  span: Span;
  started: number;
  attrs: Attributes;
  kind: 'server' | 'client';
}

export interface ConnectionInfo {
  /** Which end of MCP this process is on this connection: what its session metric is named. */
  role: 'server' | 'client';
  wire: WireKind;
  /** The session id, once there is one (Streamable HTTP's `Mcp-Session-Id`). */
  sessionId: () => string | undefined;
  /** Whether the connection is a session (not one stateless exchange): only then is its duration recorded. */
  session: boolean;
}

type Rpc = { method?: unknown; id?: unknown; params?: { _meta?: Record<string, unknown>; requestId?: unknown } };

const idOf = (id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

export class MessageSpans implements TransportTap {
  private readonly pending = new Map<string, Pending>();
  private readonly opened = performance.now();
  private version: string | undefined;
  private ended = false;

  constructor(
    private readonly inst: TelemetryInstruments,
    private readonly info: ConnectionInfo,
  ) {}

  deliver(message: JSONRPCMessage, deliver: () => void): void {
    this.learnVersion(message);
    const m = message as Rpc;
    const id = idOf(m.id);
    if (typeof m.method === 'string' && id !== undefined && m.method !== 'ping') {
      const parent = this.inst.propagator.extract(context.active(), m.params?._meta ?? {}, defaultTextMapGetter);
      const span = this.start('server', `in:${id}`, m.method, m.params, parent, id);
      context.with(span ? trace.setSpan(parent, span) : parent, deliver);
      return;
    }
    if (m.method === undefined && id !== undefined) this.finish(`out:${id}`, message);
    else if (m.method === 'notifications/cancelled') this.cancel(`in:${idOf(m.params?.requestId) ?? ''}`);
    deliver();
  }

  rewrite(message: JSONRPCMessage): JSONRPCMessage {
    this.learnVersion(message);
    const m = message as Rpc;
    const id = idOf(m.id);
    if (typeof m.method === 'string' && id !== undefined && m.method !== 'ping') {
      const active = context.active();
      const span = this.start('client', `out:${id}`, m.method, m.params, active, id);
      if (!span) return message;
      const carrier: Record<string, string> = {};
      this.inst.propagator.inject(trace.setSpan(active, span), carrier, defaultTextMapSetter);
      if (Object.keys(carrier).length === 0) return message;
      const params = (m.params ?? {}) as Record<string, unknown>;
      return { ...message, params: { ...params, _meta: { ...m.params?._meta, ...carrier } } } as JSONRPCMessage;
    }
    if (m.method === undefined && id !== undefined) this.finish(`in:${id}`, message);
    else if (m.method === 'notifications/cancelled') this.cancel(`out:${idOf(m.params?.requestId) ?? ''}`);
    return message;
  }

  closed(): void {
    if (this.ended) return;
    this.ended = true;
    for (const key of [...this.pending.keys()]) this.end(key, { errorType: CONNECTION_CLOSED });
    if (!this.info.session) return;
    const hist = this.info.role === 'server' ? this.inst.serverSession : this.inst.clientSession;
    hist.record((performance.now() - this.opened) / 1000, this.baseAttributes());
  }

  private learnVersion(message: JSONRPCMessage): void {
    this.version = statedVersion(message) ?? this.version;
  }

  private baseAttributes(): Attributes {
    return {
      ...wireAttributes(this.info.wire),
      ...(this.version !== undefined ? { [ATTR.protocolVersion]: this.version } : {}),
    };
  }

  private start(
    kind: Pending['kind'],
    key: string,
    method: string,
    params: unknown,
    parent: Context,
    id: string,
  ): Span | undefined {
    if (this.ended || this.pending.size >= MAX_PENDING || this.pending.has(key)) return undefined;
    const facts = requestFacts({ method, params });
    const attrs = { ...this.baseAttributes(), ...facts.common };
    const sessionId = this.info.sessionId();
    const span = this.inst.tracer.startSpan(
      facts.name,
      {
        kind: kind === 'server' ? SpanKind.SERVER : SpanKind.CLIENT,
        attributes: {
          ...attrs,
          ...facts.spanOnly,
          [ATTR.requestId]: id,
          ...(sessionId !== undefined ? { [ATTR.sessionId]: sessionId } : {}),
        },
      },
      parent,
    );
    this.pending.set(key, { span, started: performance.now(), attrs, kind });
    return span;
  }

  private finish(key: string, response: JSONRPCMessage): void {
    if (this.pending.has(key)) this.end(key, outcomeOf(response));
  }

  private cancel(key: string): void {
    if (this.pending.has(key)) this.end(key, { errorType: CANCELLED });
  }

  private end(key: string, o: { errorType?: string; code?: string; message?: string }): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    // The version may have become known meanwhile (the initialize answer itself).
    const attrs: Attributes = { ...p.attrs, ...this.baseAttributes() };
    if (o.errorType !== undefined) attrs[ATTR.errorType] = o.errorType;
    if (o.code !== undefined) attrs[ATTR.statusCode] = o.code;
    p.span.setAttributes(attrs);
    if (o.errorType !== undefined)
      p.span.setStatus({
        code: SpanStatusCode.ERROR,
        // A server's error message may quote what it was given: through the one redactor, bounded.
        ...(o.message !== undefined ? { message: redactString(o.message).slice(0, 300) } : {}),
      });
    p.span.end();
    const hist = p.kind === 'server' ? this.inst.serverOperation : this.inst.clientOperation;
    hist.record((performance.now() - p.started) / 1000, attrs);
  }
}
