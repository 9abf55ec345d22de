// The MCP spans and duration histograms of one connection (core/telemetry/), on a real SDK
// in-memory transport pair with the real OpenTelemetry SDK recording in memory: what a request
// written and one read become, the trace context each way, error types (JSON-RPC codes, tool
// errors, cancellation, a connection that closed), no ping and no argument recorded, and the
// sender's message left as it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  InMemoryTransport,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { McpTelemetry } from '../../../src/core/telemetry/index.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';

const spans = new InMemorySpanExporter();
const metricsOut = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricsOut, exportIntervalMillis: 3_600_000 });
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const meterProvider = new MeterProvider({ readers: [reader] });
const telemetry = new McpTelemetry({ tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() });
const manager = new AsyncLocalStorageContextManager();

before(() => {
  context.setGlobalContextManager(manager.enable());
});
after(async () => {
  context.disable();
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
});

const def = {
  name: 'up',
  config: { type: 'http', url: 'https://user:pw@mcp.example.com:8443/mcp?key=secret' },
} as unknown as ServerDefinition;

/** `wrapped` (telemetry's side) and `peer`, started; what the peer and the wrapped side's reader get. */
async function pair(wrap: (t: Transport) => Transport): Promise<{
  wrapped: Transport;
  peer: Transport;
  atPeer: JSONRPCMessage[];
  read: { msg: JSONRPCMessage; traceId?: string }[];
}> {
  const [ours, peer] = InMemoryTransport.createLinkedPair();
  const wrapped = wrap(ours);
  const atPeer: JSONRPCMessage[] = [];
  const read: { msg: JSONRPCMessage; traceId?: string }[] = [];
  peer.onmessage = (m) => atPeer.push(m);
  wrapped.onmessage = (msg) => {
    const traceId = trace.getSpan(context.active())?.spanContext().traceId;
    read.push({ msg, ...(traceId ? { traceId } : {}) });
  };
  await Promise.all([wrapped.start(), peer.start()]);
  return { wrapped, peer, atPeer, read };
}

const finished = (name: string): ReadableSpan => {
  const s = spans.getFinishedSpans().find((x) => x.name === name);
  assert.ok(
    s,
    `span ${name} among ${spans
      .getFinishedSpans()
      .map((x) => x.name)
      .join(', ')}`,
  );
  return s;
};

async function histogram(name: string): Promise<{ attributes: Attributes; count: number }[]> {
  await reader.forceFlush();
  const last = metricsOut.getMetrics().at(-1);
  const m = last?.scopeMetrics.flatMap((s) => s.metrics).find((x) => x.descriptor.name === name) as
    HistogramMetricData | undefined;
  return (m?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, count: p.value.count }));
}

test('the W3C propagator writes the _meta keys the SDK names', () => {
  assert.deepEqual(new W3CTraceContextPropagator().fields(), [TRACEPARENT_META_KEY, TRACESTATE_META_KEY]);
});

test('a request written is a CLIENT span whose context goes out in _meta; the sender’s message is not changed', async () => {
  const { wrapped, peer, atPeer } = await pair((t) => telemetry.upstream(def, t));
  const request = {
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'tools/call',
    params: { name: 'lookup', arguments: { password: 'hunter2-s3cret' }, _meta: { progressToken: 9 } },
  };
  await wrapped.send(request);
  assert.deepEqual(request.params._meta, { progressToken: 9 }, 'the caller’s object is left alone');
  const sent = atPeer[0] as { params: { _meta: Record<string, unknown> } };
  assert.equal(sent.params._meta.progressToken, 9, 'the _meta it had is kept');
  const traceparent = sent.params._meta.traceparent as string;
  assert.match(traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  await peer.send({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } });
  const s = finished('tools/call lookup');
  assert.equal(s.kind, 2 /* CLIENT in the SDK's enum */);
  assert.equal(traceparent, `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`);
  assert.equal(s.attributes['mcp.method.name'], 'tools/call');
  assert.equal(s.attributes['gen_ai.tool.name'], 'lookup');
  assert.equal(s.attributes['jsonrpc.request.id'], '1');
  assert.equal(s.attributes['error.type'], 'tool_error');
  assert.equal(s.status.code, 2 /* ERROR */);
  // Where the server is, without its credentials, path or query; never the arguments.
  assert.equal(s.attributes['server.address'], 'mcp.example.com');
  assert.equal(s.attributes['server.port'], 8443);
  assert.equal(s.attributes['network.transport'], 'tcp');
  assert.doesNotMatch(JSON.stringify(s.attributes), /hunter2|secret|pw@/);
  const points = await histogram('mcp.client.operation.duration');
  const p = points.find((x) => x.attributes['gen_ai.tool.name'] === 'lookup');
  assert.equal(p?.count, 1);
  assert.equal(p?.attributes['error.type'], 'tool_error');
  assert.equal(p?.attributes['jsonrpc.request.id'], undefined);
  await wrapped.close();
});

test('a request read is a SERVER span under the sender’s context, its handler inside it; a JSON-RPC error is its code', async () => {
  const { wrapped, peer, read } = await pair((t) => telemetry.agent(t, { perRequest: false }));
  const traceId = 'ab'.repeat(16);
  const parent = 'cd'.repeat(8);
  await peer.send({
    jsonrpc: '2.0',
    id: 'r-7',
    method: 'resources/read',
    params: { uri: 'file:///notes.md', _meta: { traceparent: `00-${traceId}-${parent}-01` } },
  });
  assert.equal(read[0]?.traceId, traceId, 'the reader runs in the span’s context');
  await wrapped.send({
    jsonrpc: '2.0',
    id: 'r-7',
    error: { code: -32002, message: 'not found: token=abcdef0123456789abcdef' },
  });
  const s = finished('resources/read');
  assert.equal(s.kind, 1 /* SERVER */);
  assert.equal(s.spanContext().traceId, traceId);
  assert.equal(s.parentSpanContext?.spanId, parent);
  assert.equal(s.attributes['mcp.resource.uri'], 'file:///notes.md');
  assert.equal(s.attributes['error.type'], '-32002');
  assert.equal(s.attributes['rpc.response.status_code'], '-32002');
  assert.equal(s.attributes['network.transport'], 'pipe');
  assert.doesNotMatch(s.status.message ?? '', /abcdef0123456789abcdef/, 'the message is redacted');
  const points = await histogram('mcp.server.operation.duration');
  const p = points.find((x) => x.attributes['mcp.method.name'] === 'resources/read');
  assert.equal(p?.attributes['mcp.resource.uri'], undefined, 'no URI on the metric (opt-in there)');
  await wrapped.close();
});

test('a resource URI’s credentials are not recorded', async () => {
  const { wrapped, peer } = await pair((t) => telemetry.agent(t, { perRequest: false }));
  await peer.send({
    jsonrpc: '2.0',
    id: 8,
    method: 'resources/read',
    params: { uri: 'postgres://admin:pa55word@db.internal/customers?access_token=tok-123' },
  });
  await wrapped.send({ jsonrpc: '2.0', id: 8, result: { contents: [] } });
  const uri = String(spans.getFinishedSpans().at(-1)?.attributes['mcp.resource.uri']);
  assert.match(uri, /^postgres:\/\/.*db\.internal\/customers/);
  assert.doesNotMatch(uri, /pa55word|tok-123/);
  await wrapped.close();
});

test('pings are not recorded; a cancelled request and one the connection’s end cut off get their error.type', async () => {
  spans.reset();
  const { wrapped, peer } = await pair((t) => telemetry.upstream({ ...def, config: { type: 'stdio' } } as never, t));
  await wrapped.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  await peer.send({ jsonrpc: '2.0', id: 1, result: {} });
  await wrapped.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await wrapped.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
  await wrapped.send({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'greet' } });
  await wrapped.close();
  assert.deepEqual(
    spans
      .getFinishedSpans()
      .map((s) => s.name)
      .sort(),
    ['prompts/get greet', 'tools/list'],
  );
  assert.equal(finished('tools/list').attributes['error.type'], 'cancelled');
  assert.equal(finished('prompts/get greet').attributes['error.type'], 'connection_closed');
  assert.equal(finished('prompts/get greet').attributes['gen_ai.prompt.name'], 'greet');
  const sessions = await histogram('mcp.client.session.duration');
  assert.ok(sessions.some((x) => x.attributes['network.transport'] === 'pipe' && x.count >= 1));
});

test('a stateless exchange (2026-07-28) records no session duration', async () => {
  const before = (await histogram('mcp.server.session.duration')).reduce((n, p) => n + p.count, 0);
  const { wrapped } = await pair((t) => telemetry.agent(t, { perRequest: true }));
  await wrapped.close();
  const now = (await histogram('mcp.server.session.duration')).reduce((n, p) => n + p.count, 0);
  assert.equal(now, before);
});
