// OpenTelemetry of the team gateway, end to end with real parts: `mcp-host serve --http` as a
// process with `"gateway": {"telemetry": {"otlpEndpoint": …}}`, a real upstream stdio server that
// shows the trace context it was sent, SDK v2 clients of both eras as agents sending a
// `traceparent`, and an OTLP/HTTP receiver on loopback taking what the real exporters send. One
// trace runs from the agent through the gateway (SERVER span, then CLIENT span) to the upstream;
// the spans, the duration histograms and a tool error's `error.type` follow the MCP conventions.
// Not configured (OTEL_SDK_DISABLED beside an endpoint): nothing is sent, no trace context passed on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHarness, ROOT, type Harness } from '../../cli/harness.js';
import { serverScript } from '../../../support/fixture-servers.js';
import { poll } from '../../../support/poll.js';
import { withDeadline } from '../../../support/wait.js';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver, type OtlpSpan } from '../../../support/otlp-receiver.js';
import { text } from '../helpers.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';
import { gatewayPathEnv } from '../../../support/gateway-path.js';

const TRACE_SERVER = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'trace-context-server.mjs'));
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
let h: Harness;
let idp: TeamIdp;
let otlp: OtlpReceiver;
const children: ChildProcess[] = [];

before(async () => {
  [h, idp, otlp] = await Promise.all([createHarness(), startTeamIdp(), startOtlpReceiver()]);
});

after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await otlp?.close();
  await idp?.close();
  await h?.dispose();
});

interface Gateway {
  url: string;
  resource: string;
  stop(): Promise<void>;
}

/** `serve --http` with the trace fixture as its one server; `telemetry` into the gateway object. */
async function startGateway(name: string, telemetry: unknown, env: Record<string, string> = {}): Promise<Gateway> {
  const ws = await h.workspace(name, {});
  const config = join(h.dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { trace: { command: process.execPath, args: [TRACE_SERVER] } },
      gateway: { auth: { issuer: idp.issuer, requiredScopes: [SCOPE] }, ...(telemetry ? { telemetry } : {}) },
    }),
  );
  const proc = spawn(process.execPath, [h.cli, 'serve', '--http', '--port', '0', '--config', config], {
    cwd: ws,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: h.dir,
      MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
      // Spans out within 100 ms of ending: the test waits on the receiver, not on the exit.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...gatewayPathEnv(),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(proc);
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const [, url, resource] = await poll(
    'the gateway to say where it listens',
    60_000,
    async () => /listening on (\S+) \(resource (\S+)\)/.exec(stderr) ?? undefined,
  );
  return {
    url: url!,
    resource: resource!,
    async stop() {
      proc.kill('SIGTERM');
      assert.equal(await withDeadline(exit, 'serve --http to exit', 60_000), 0, stderr);
    },
  };
}

async function connectAgent(g: Gateway, era: '2026-07-28' | '2025-11-25'): Promise<Client> {
  const token = await idp.tokenFor('alice', g.resource);
  const client = new Client(
    { name: `agent-${era}`, version: '1.0.0' },
    { versionNegotiation: { mode: era === '2025-11-25' ? 'legacy' : { pin: era } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(g.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  await poll('the trace server’s tools', 30_000, async () =>
    (await client.listTools()).tools.some((t) => t.name === 'trace__trace_context') ? true : undefined,
  );
  return client;
}

/** A W3C traceparent of the agent's own (sampled): its trace id and span id. */
function agentContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const seenUpstream = (r: unknown): { traceparent: string | null; tracestate: string | null } =>
  JSON.parse(text(r)) as { traceparent: string | null; tracestate: string | null };

function spanNamed(spans: OtlpSpan[], traceId: string, name: string, kind: number): OtlpSpan | undefined {
  return spans.find((s) => s.traceId === traceId && s.name === name && s.kind === kind);
}

describe('serve --http exports MCP traces and metrics by OTLP', { timeout: 240_000 }, () => {
  test('one trace from the agent through the gateway to the upstream, per the MCP conventions', async () => {
    const g = await startGateway('otel', { otlpEndpoint: otlp.url, serviceName: 'team-gateway-under-test' });
    const checked: { era: string; traceId: string; server: OtlpSpan; client: OtlpSpan }[] = [];
    for (const era of ['2026-07-28', '2025-11-25'] as const) {
      const agent = await connectAgent(g, era);
      const ctx = agentContext();
      const result = await agent.callTool({
        name: 'trace__trace_context',
        arguments: {},
        _meta: { traceparent: ctx.traceparent, tracestate: 'agent=1' },
      });
      const upstream = seenUpstream(result);
      const failed = agentContext();
      const fail = await agent.callTool({
        name: 'trace__fail',
        arguments: {},
        _meta: { traceparent: failed.traceparent },
      });
      assert.equal(fail.isError, true);
      await agent.close();

      const [server, client] = await poll(`the ${era} call's two spans at the receiver`, 30_000, async () => {
        const spans = otlp.spans();
        const s = spanNamed(spans, ctx.traceId, 'tools/call trace__trace_context', SPAN_KIND.SERVER);
        const c = spanNamed(spans, ctx.traceId, 'tools/call trace_context', SPAN_KIND.CLIENT);
        return s && c ? ([s, c] as const) : undefined;
      });
      // The agent's span is the gateway's server span's parent; that one the client span's; and
      // the upstream was sent the client span's context, with the agent's tracestate kept.
      assert.equal(server.parentSpanId, ctx.spanId, era);
      assert.equal(client.parentSpanId, server.spanId, era);
      assert.equal(upstream.traceparent, `00-${ctx.traceId}-${client.spanId}-01`, era);
      assert.equal(upstream.tracestate, 'agent=1', era);
      assert.equal(server.service, 'team-gateway-under-test');
      assert.equal(server.attributes['mcp.method.name'], 'tools/call');
      assert.equal(server.attributes['gen_ai.tool.name'], 'trace__trace_context');
      assert.equal(server.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.equal(server.attributes['network.transport'], 'tcp');
      assert.equal(server.attributes['network.protocol.name'], 'http');
      assert.equal(server.attributes['mcp.protocol.version'], era);
      assert.equal(typeof server.attributes['jsonrpc.request.id'], 'string');
      assert.equal(server.attributes['error.type'], undefined, 'a call that worked has no error.type');
      assert.equal(client.attributes['gen_ai.tool.name'], 'trace_context');
      assert.equal(client.attributes['network.transport'], 'pipe');
      assert.equal(typeof client.attributes['mcp.protocol.version'], 'string');
      if (era === '2025-11-25')
        assert.equal(typeof server.attributes['mcp.session.id'], 'string', 'a session has its id');
      else assert.equal(server.attributes['mcp.session.id'], undefined, 'a stateless exchange has no session');
      checked.push({ era, traceId: ctx.traceId, server, client });

      const [failServer, failClient] = await poll(`the ${era} tool error's spans`, 30_000, async () => {
        const spans = otlp.spans();
        const s = spanNamed(spans, failed.traceId, 'tools/call trace__fail', SPAN_KIND.SERVER);
        const c = spanNamed(spans, failed.traceId, 'tools/call fail', SPAN_KIND.CLIENT);
        return s && c ? ([s, c] as const) : undefined;
      });
      for (const s of [failServer, failClient]) {
        assert.equal(s.attributes['error.type'], 'tool_error', `${era} ${s.name}`);
        assert.equal(s.status?.code, 2, `${era} ${s.name}: status ERROR`);
      }
    }
    assert.notEqual(checked[0]!.traceId, checked[1]!.traceId);
    // The drain's end shuts the SDK down, which exports the histograms (and the sessions' durations).
    await g.stop();
    const points = otlp.points();
    const point = (metric: string, match: Record<string, string>) =>
      points.find((p) => p.metric === metric && Object.entries(match).every(([k, v]) => p.attributes[k] === v));
    const serverOk = point('mcp.server.operation.duration', { 'gen_ai.tool.name': 'trace__trace_context' });
    assert.ok(serverOk, `server operation histogram: ${JSON.stringify(points.map((p) => p.metric))}`);
    assert.equal(serverOk.unit, 's');
    assert.deepEqual(serverOk.explicitBounds, BUCKETS);
    assert.equal(serverOk.attributes['mcp.method.name'], 'tools/call');
    assert.equal(serverOk.attributes['error.type'], undefined);
    assert.equal(serverOk.attributes['jsonrpc.request.id'], undefined, 'no per-request attributes on metrics');
    const serverFail = point('mcp.server.operation.duration', { 'gen_ai.tool.name': 'trace__fail' });
    assert.equal(serverFail?.attributes['error.type'], 'tool_error');
    const clientOk = point('mcp.client.operation.duration', { 'gen_ai.tool.name': 'trace_context' });
    assert.ok(clientOk, 'client operation histogram');
    assert.deepEqual(clientOk.explicitBounds, BUCKETS);
    assert.equal(clientOk.attributes['network.transport'], 'pipe');
    assert.equal(
      point('mcp.client.operation.duration', { 'gen_ai.tool.name': 'fail' })?.attributes['error.type'],
      'tool_error',
    );
    const upstreamSession = point('mcp.client.session.duration', { 'network.transport': 'pipe' });
    assert.ok(upstreamSession && upstreamSession.count >= 1, 'the upstream connection’s session duration');
    const agentSession = point('mcp.server.session.duration', { 'mcp.protocol.version': '2025-11-25' });
    assert.ok(agentSession && agentSession.count >= 1, 'the 2025-11-25 agent session’s duration');
    assert.equal(point('mcp.server.session.duration', { 'mcp.protocol.version': '2026-07-28' }), undefined);
    assert.ok(
      otlp.requests.every((r) => r.path === '/v1/traces' || r.path === '/v1/metrics'),
      JSON.stringify(otlp.requests),
    );
  });

  test('not configured: nothing is sent, and no trace context is passed on', async () => {
    const before = otlp.requests.length;
    // An endpoint in the environment, but the SDK switched off the standard way.
    const g = await startGateway('otel-off', undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_SDK_DISABLED: 'true',
    });
    const agent = await connectAgent(g, '2026-07-28');
    const ctx = agentContext();
    const result = await agent.callTool({
      name: 'trace__trace_context',
      arguments: {},
      _meta: { traceparent: ctx.traceparent },
    });
    assert.deepEqual(seenUpstream(result), { traceparent: null, tracestate: null });
    await agent.close();
    await g.stop();
    assert.equal(otlp.requests.length, before, JSON.stringify(otlp.requests.slice(before)));
  });

  test('stdio `serve` (the shared gateway) with OTEL_EXPORTER_OTLP_ENDPOINT: the same trace over pipes', async () => {
    const ws = await h.workspace('otel-stdio', { trace: { command: process.execPath, args: [TRACE_SERVER] } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [h.cli, 'serve', '--allow-project-servers'],
      cwd: ws,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: h.dir,
        MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
        MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
        MCP_HOST_SERVE_GRACE_MS: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_SERVICE_NAME: 'serve-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        ...gatewayPathEnv(),
      },
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await agent.connect(transport);
    await poll('the trace server’s tools', 30_000, async () =>
      (await agent.listTools()).tools.some((t) => t.name === 'trace__trace_context') ? true : undefined,
    );
    const ctx = agentContext();
    const upstream = seenUpstream(
      await agent.callTool({ name: 'trace__trace_context', arguments: {}, _meta: { traceparent: ctx.traceparent } }),
    );
    await agent.close();
    const [server, client] = await poll('the stdio call’s two spans', 30_000, async () => {
      const spans = otlp.spans();
      const s = spanNamed(spans, ctx.traceId, 'tools/call trace__trace_context', SPAN_KIND.SERVER);
      const c = spanNamed(spans, ctx.traceId, 'tools/call trace_context', SPAN_KIND.CLIENT);
      return s && c ? ([s, c] as const) : undefined;
    });
    assert.equal(server.parentSpanId, ctx.spanId);
    assert.equal(client.parentSpanId, server.spanId);
    assert.equal(upstream.traceparent, `00-${ctx.traceId}-${client.spanId}-01`);
    assert.equal(server.service, 'serve-under-test');
    assert.equal(server.attributes['network.transport'], 'pipe');
    assert.equal(server.attributes['network.protocol.name'], undefined);
  });
});
