// Upstream credentials per person through the team gateway: the real team IdP (oidc-provider) signs
// the agents in; for a per-user upstream the gateway exchanges each caller's own token at the IdP's
// exchange endpoint for an ID-JAG and that for the upstream's own token (per-user-upstream.ts), and
// the upstream records what every request carried. A shared service credential the operator
// configured (headers) stays one for everyone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { McpTelemetry } from '../../../../src/core/telemetry/index.js';
import { Gateway, gatewayFeatures } from '../../../../src/core/gateway/index.js';
import { AuditLog, auditedHost } from '../../../../src/core/gateway/service/audit.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import type { ServiceAuth } from '../../../../src/core/gateway/service/config.js';
import { parseUpstreamAuth } from '../../../../src/core/gateway/service/upstream-auth.js';
import { PerUserPool, perUserFeatures, perUserHost } from '../../../../src/core/gateway/service/upstream-pool.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { def, MemoryLogger, tempDir } from '../../connection/helpers.js';
import { closeAgent, text } from '../helpers.js';
import { poll } from '../../../support/wait.js';
import { withDeadline } from '../../../support/wait.js';
import { GATEWAY_CLIENT, startPerUserUpstream, type PerUserUpstream } from '../../../support/per-user-upstream.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

let idp: TeamIdp;
let fx: PerUserUpstream;
let host: McpHost;
let pool: PerUserPool;
let gateway: Gateway;
let service: GatewayService;
let audit: AuditLog;
let logger: MemoryLogger;
const auditFile = join(tempDir('upstream-audit'), 'audit.jsonl');
const team = { issuer: '', gatewayResource: '' };
// The real OpenTelemetry SDK recording in memory: the gateway's SERVER spans and the per-person connections' CLIENT spans.
const spans = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
const telemetry = new McpTelemetry({ tracerProvider, propagator: new W3CTraceContextPropagator() });
const agents: Client[] = [];
const FAST = process.env.MCP_HOST_GATEWAY_FAST_PATH !== '0';
/** What an agent can ask a server for; each answer of the upstream names whom the request was for. */
const FORWARDED = ['tools/call', 'resources/read', 'prompts/get', 'completion/complete'];

before(async () => {
  idp = await startTeamIdp();
  team.issuer = idp.issuer;
  fx = await startPerUserUpstream(team);
  logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('upstream-blobs') });
  // The host's own connection to both lists their tools with the operator's service token.
  const headers = { Authorization: `Bearer ${fx.serviceToken}` };
  host.setDefinitions([
    def('personal', { type: 'http', url: fx.mcpUrl, headers }),
    def('shared', { type: 'http', url: fx.mcpUrl, headers }),
    // Per-user too, with a short tool deadline of its own (the last test).
    def('brief', { type: 'http', url: fx.mcpUrl, headers, toolTimeout: 2000 }),
  ]);
  await host.whenSettled();
  const { perUser, problems } = parseUpstreamAuth(
    [
      {
        file: '/etc/mcp-host/team.json',
        value: {
          upstreamAuth: {
            personal: { mode: 'per-user', clientId: GATEWAY_CLIENT, idpTokenEndpoint: fx.exchangeUrl },
            brief: { mode: 'per-user', clientId: GATEWAY_CLIENT, idpTokenEndpoint: fx.exchangeUrl },
          },
        },
      },
    ],
    {},
  );
  assert.deepEqual(problems, []);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  pool = new PerUserPool(perUser, (name) => (host.server(name) ? fx.mcpUrl : undefined), idp.issuer, {
    // As serve-http.ts wraps them when telemetry is configured.
    wrapTransport: (server, t) => telemetry.upstream(host.server(server)!.definition, t),
  });
  audit = new AuditLog(auditFile);
  // As serve-http.ts makes it: completions and subscriptions through the same per-user proxy.
  const upstream = perUserHost(host, pool);
  gateway = new Gateway({
    host: auditedHost(upstream, audit),
    logger,
    features: perUserFeatures(gatewayFeatures(upstream), pool),
    telemetry,
  });
  const auth: ServiceAuth = { issuer: idp.issuer, requiredScopes: [SCOPE], groupsClaim: 'groups', clockToleranceS: 0 };
  service = await GatewayService.start({ gateway, logger, auth, profiles: () => ({}), listen: { port: 0 } });
  team.gatewayResource = service.resource;
  service.markReady();
});

after(async () => {
  for (const a of agents) await closeAgent(a);
  await service?.dispose();
  await gateway?.dispose();
  await pool?.dispose();
  await host?.dispose();
  await audit?.close();
  await fx?.close();
  await idp?.close();
  await tracerProvider.shutdown();
  context.disable();
});

/** An agent signed in as `person`: a 2025-11-25 one (the fast path's, when it is on) unless `modern`. */
async function agentAs(person: string, modern = false): Promise<{ client: Client; token: string }> {
  const token = await idp.tokenFor(person, service.resource);
  const client = new Client(
    { name: `agent-of-${person}`, version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(service.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  agents.push(client);
  return { client, token };
}

const whoami = async (c: Client, server = 'personal'): Promise<string> =>
  text(await c.callTool({ name: `${server}__whoami`, arguments: {} }));

/** The upstream's tool calls since `from`: whom each token was for. */
const callsSince = (from: number): { sub: string | undefined; token: string }[] =>
  fx.seen.slice(from).filter((r) => r.method === 'tools/call');

describe('upstream credentials per person', { timeout: 120_000 }, () => {
  test('two people call the same upstream tool and the upstream sees each one, never the other', async () => {
    const alice = await agentAs('alice');
    const bob = await agentAs('bob');
    const from = fx.seen.length;
    assert.equal(await whoami(alice.client), 'hello alice');
    assert.equal(await whoami(bob.client), 'hello bob');
    assert.equal(await whoami(alice.client), 'hello alice');
    const calls = callsSince(from);
    assert.deepEqual(
      calls.map((c) => c.sub),
      ['alice', 'bob', 'alice'],
    );
    // What reached the upstream: alice's token only on alice's calls; no agent's own token, no service token.
    const aliceTokens = new Set(calls.filter((c) => c.sub === 'alice').map((c) => c.token));
    for (const c of calls.filter((c) => c.sub === 'bob')) assert.ok(!aliceTokens.has(c.token));
    const sent = fx.seen.slice(from).map((r) => r.token);
    assert.ok(!sent.includes(alice.token) && !sent.includes(bob.token), "the agents' own tokens never go upstream");
    assert.ok(!calls.some((c) => c.token === fx.serviceToken), 'no per-user call over the shared credential');
    // Exchanged once each; alice's second call used her cached token.
    assert.deepEqual(fx.exchanges.filter((s) => s === 'alice').length, 1);
    assert.deepEqual(fx.exchanges.filter((s) => s === 'bob').length, 1);
  });

  test('an upstream token that expired is renewed by a new exchange', async () => {
    const carol = await agentAs('carol');
    assert.equal(await whoami(carol.client), 'hello carol');
    const before = fx.exchanges.filter((s) => s === 'carol').length;
    const first = callsSince(0)
      .filter((c) => c.sub === 'carol')
      .at(-1)!.token;
    fx.expire('carol');
    assert.equal(await whoami(carol.client), 'hello carol');
    assert.equal(fx.exchanges.filter((s) => s === 'carol').length, before + 1);
    const last = callsSince(0)
      .filter((c) => c.sub === 'carol')
      .at(-1)!.token;
    assert.notEqual(last, first);
  });

  test('an exchange the IdP refuses is a clear tool error for the agent, and audited', async () => {
    fx.refused.add('bob');
    try {
      const bob = await agentAs('bob');
      // bob's cached upstream token is still good: a refusal shows at the next exchange.
      fx.expire('bob');
      const from = fx.seen.length;
      const r = await bob.client.callTool({ name: 'personal__whoami', arguments: {} });
      assert.equal(r.isError, true);
      assert.match(text(r), /refused the token exchange.*access_denied/);
      assert.ok(!callsSince(from).some((c) => c.sub !== undefined), 'nothing reached the upstream as anyone');
      // The audit file is written by a stream: its line lands a moment after the call's answer.
      const last = await poll('the audit line of the refused call', 10_000, async () =>
        readFileSync(auditFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.sub === 'bob' && l.server === 'personal' && l.outcome === 'failed'),
      );
      assert.match(String(last.error), /access_denied/);
    } finally {
      fx.refused.delete('bob');
    }
  });

  for (const modern of [false, true])
    test(`${modern ? '2026-07-28 (full path)' : `2025-11-25 (${FAST ? 'fast' : 'full'} path)`}: tool, resource, prompt and completion go out as the caller`, async () => {
      const people = modern ? ['bob', 'alice'] : ['alice', 'bob'];
      const fast0 = gateway.paths().fast;
      const from = fx.seen.length;
      for (const person of people) {
        const { client } = await agentAs(person, modern);
        assert.equal(await whoami(client), `hello ${person}`);
        const page = (await client.listResources()).resources.find((r) => r.uri.startsWith('mcp-host://personal/'));
        assert.ok(page, 'the per-user server offers its resource under its name');
        const read = await client.readResource({ uri: page.uri });
        assert.equal((read.contents[0] as { text?: string }).text, `the page of ${person}`);
        const prompt = await client.getPrompt({ name: 'personal__greet', arguments: { name: 'you' } });
        assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: `${person} greets you` });
        const done = await client.complete({
          ref: { type: 'ref/prompt', name: 'personal__greet' },
          argument: { name: 'name', value: '' },
        });
        assert.deepEqual(done.completion.values, [person]);
        // A subscription would be the host's one for everyone: refused by name (2025-11-25's
        // resources/subscribe; a 2026-07-28 agent has no such method).
        if (!modern)
          await assert.rejects(client.subscribeResource({ uri: page.uri }), /per-user server are not offered/);
      }
      // What the upstream itself saw: each of the four as one of the two people, never the service.
      const sent = fx.seen.slice(from).filter((r) => FORWARDED.includes(r.method ?? ''));
      assert.deepEqual(
        sent.map((r) => `${r.method} ${r.sub}`).sort(),
        people.flatMap((p) => FORWARDED.map((m) => `${m} ${p}`)).sort(),
      );
      // The legacy agents' tool call, read and prompt took the fast path when it is on: it was met, not skipped.
      assert.equal(gateway.paths().fast - fast0, FAST && !modern ? 3 * people.length : 0);
    });

  test("one trace from the agent through the gateway to the person's own upstream connection", async () => {
    const { client } = await agentAs('carol');
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    const from = fx.seen.length;
    const r = await client.callTool({
      name: 'personal__whoami',
      arguments: {},
      _meta: { traceparent: `00-${traceId}-${spanId}-01` },
    });
    assert.equal(text(r), 'hello carol');
    const named = (name: string, kind: number): ReadableSpan | undefined =>
      spans.getFinishedSpans().find((s) => s.spanContext().traceId === traceId && s.name === name && s.kind === kind);
    // SpanKind: SERVER 1, CLIENT 2.
    const server = await poll('the SERVER span', 10_000, async () => named('tools/call personal__whoami', 1));
    const upstreamSpan = await poll('the CLIENT span', 10_000, async () => named('tools/call whoami', 2));
    assert.equal(server.parentSpanContext?.spanId, spanId);
    assert.equal(upstreamSpan.parentSpanContext?.spanId, server.spanContext().spanId);
    const sent = fx.seen.slice(from).find((x) => x.method === 'tools/call');
    assert.equal(sent?.sub, 'carol');
    assert.equal(sent?.traceparent, `00-${traceId}-${upstreamSpan.spanContext().spanId}-01`);
  });

  test('a shared service credential the operator configured works for everyone', async () => {
    const alice = await agentAs('alice');
    const bob = await agentAs('bob');
    assert.equal(await whoami(alice.client, 'shared'), 'hello service');
    assert.equal(await whoami(bob.client, 'shared'), 'hello service');
    // No token the upstream received, nor any agent's, is in the gateway's log or the audit file.
    const written = [...logger.lines, readFileSync(auditFile, 'utf8')].join('\n');
    for (const r of fx.seen) if (r.token) assert.ok(!written.includes(r.token), 'an upstream token was logged');
    assert.ok(!written.includes(alice.token) && !written.includes(bob.token), "an agent's token was logged");
    // alice, bob and carol: one upstream connection each for the per-user server (whatever the agent's
    // era and the path), none for the shared one.
    assert.equal(pool.size, 3);
  });

  test("a per-user call ends at its server's toolTimeout, as a shared one would, not the SDK's 60 s", async () => {
    const { client } = await agentAs('carol');
    // Far above the 2 s configured, far below the SDK's own 60 s: ending in between is the toolTimeout's doing.
    const r = await withDeadline(
      client.callTool({ name: 'brief__wait', arguments: {} }),
      "end of the call at the server's toolTimeout",
      30_000,
    );
    assert.equal(r.isError, true);
    assert.match(text(r), /timed out|timeout/i);
  });
});
