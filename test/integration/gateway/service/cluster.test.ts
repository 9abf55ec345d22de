// Two `mcp-host serve --http` processes sharing one real redis-server, no balancer in front: an
// agent listening on A hears a list change that arose on B (each process runs its own copy of the
// stdio fixture, so a tool added on B's copy is a change only B sees itself); a result page cut on
// A is read on B, by its own person only; one rate limit per person across both; and when Redis
// goes away, calls get clear errors at once and the processes keep serving.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, ROOT, type Harness } from '../../cli/harness.js';
import { serverScript } from '../../../support/fixture-servers.js';
import { requireTool } from '../../../support/system-tool.js';
import { startRedis, type RunningRedis } from '../../../support/redis-server.js';
import { withDeadline } from '../../../support/wait.js';
import { poll } from '../../../support/poll.js';
import { text } from '../helpers.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';
import { agentOn, sharedHealth, startGatewayProcess, type GatewayProcess } from './gateway-process.js';

const skip = requireTool('redis-server', 'apt-get install redis-server');
const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
/** Both processes are one resource: what a balancer's public URL would be. */
const RESOURCE = 'https://gateway.example.test/mcp';

let h: Harness;
let idp: TeamIdp;
let redis: RunningRedis;
let a: GatewayProcess | undefined;
let b: GatewayProcess | undefined;
let token: string;
let audit: string;
/** Calls per person: 5 at once, then one a minute (a test's calls never see a refill). */
const BURST = 5;

/**
 * Waits for every start, then throws the first failure: what did start is then assigned, and
 * `after` stops it (with Promise.all a Redis that came up late left the IdP and the harness
 * running, and the file's process never ended).
 */
async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

before(async () => {
  if (skip) return;
  await allStarted([
    createHarness().then((x) => (h = x)),
    startTeamIdp().then((x) => (idp = x)),
    startRedis().then((x) => (redis = x)),
  ]);
  const config = join(h.dir, 'gateway.json');
  audit = join(h.dir, 'audit.jsonl');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: { command: process.execPath, args: [STDIO, '--name', 'alpha'] } },
      gateway: {
        auth: { issuer: idp.issuer, requiredScopes: [SCOPE], resource: RESOURCE },
        redis: { url: `${redis.url}/0`, keyPrefix: 'cluster-test:' },
        rateLimit: { callsPerMinute: 1, burst: BURST },
        auditLog: audit,
      },
    }),
  );
  const ws = await h.workspace('cluster', {});
  // Results past 50 tokens (200 characters) are cut: a page to read on the other process.
  const cut = ['--max-result-tokens', '50'];
  await allStarted([
    startGatewayProcess(h, config, ws, 'A', cut).then((x) => (a = x)),
    startGatewayProcess(h, config, ws, 'B', cut).then((x) => (b = x)),
  ]);
  token = await idp.tokenFor('alice', RESOURCE);
});

after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await idp?.close();
  await h?.dispose();
});

describe('two gateway processes, one Redis', { skip, timeout: 180_000 }, () => {
  test('a subscriptions/listen on A hears a list change that arose on B, where only a 2025-11-25 agent came', async () => {
    const onA = await agentOn(a!.url, token, true);
    // A session: B serves no 2026-07-28 agent of this view itself, it opens it for A's listeners.
    const onB = await agentOn(b!.url, token, false);
    try {
      const heard = new Promise<void>((resolve) =>
        onA.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
      );
      const sub = await onA.listen({ toolsListChanged: true });
      try {
        await poll('B to serve the view A announced', 30_000, async () =>
          Number((await sharedHealth(b!.origin)).viewsServed) >= 1 ? true : undefined,
        );
        await poll('alpha on B', 30_000, async () =>
          (await onB.listTools()).tools.some((t) => t.name === 'alpha__add_tool') ? true : undefined,
        );
        const added = await onB.callTool({ name: 'alpha__add_tool', arguments: { name: 'only_on_b' } });
        assert.equal(text(added), 'added only_on_b');
        await withDeadline(heard, 'tools/list_changed on A for a change on B', 30_000);
        const names = (await onB.listTools()).tools.map((t) => t.name);
        assert.ok(names.includes('alpha__only_on_b'), names.join());
        assert.ok(
          !(await onA.listTools()).tools.some((t) => t.name === 'alpha__only_on_b'),
          "A's own copy of alpha did not change",
        );
      } finally {
        await sub.close();
      }
      const healthA = await sharedHealth(a!.origin);
      assert.equal(healthA.redis, 'connected');
      assert.ok(Number(healthA.eventsReceived) >= 1, JSON.stringify(healthA));
      assert.ok(Number((await sharedHealth(b!.origin)).eventsPublished) >= 1);
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });

  test('a result page cut on A is read on B, by the person whose call it was only', async () => {
    const onA = await agentOn(a!.url, token, true);
    const onB = await agentOn(b!.url, token, true);
    const carol = await agentOn(b!.url, await idp.tokenFor('carol', RESOURCE), true);
    try {
      const whole = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
      const trips = async (p: GatewayProcess): Promise<number> =>
        Number((await sharedHealth(p.origin)).redisRoundTrips);
      const [a0, b0] = [await trips(a!), await trips(b!)];
      const cut = await onA.callTool({ name: 'alpha__echo', arguments: { text: whole } });
      // A cut call: the rate limit's script and the page's MULTI.
      assert.equal((await trips(a!)) - a0, 2);
      const note = text(cut);
      const base = /(mcp-host-result:\/\/[0-9a-f-]+) in (\d+) page/.exec(note);
      assert.ok(base, JSON.stringify(note));
      const pageOf = async (client: typeof onB, page: number): Promise<string> => {
        const r = await client.readResource({ uri: `${base[1]}?page=${page}` });
        return (r.contents[0] as { text: string }).text;
      };
      assert.equal(await pageOf(onB, 1), `echo: ${whole}`.slice(0, 200));
      // A page read: the rate limit's script and one HMGET.
      assert.equal((await trips(b!)) - b0, 2);
      assert.equal(await pageOf(onB, 2), `echo: ${whole}`.slice(200, 400));
      await assert.rejects(pageOf(carol, 1), /no longer kept/);
    } finally {
      await Promise.all([onA.close(), onB.close(), carol.close()]);
    }
  });

  test('one rate limit per person across A and B: 429 with Retry-After, a JSON-RPC error, audited', async () => {
    const bobToken = await idp.tokenFor('bob', RESOURCE);
    const onA = await agentOn(a!.url, bobToken, true);
    const onB = await agentOn(b!.url, bobToken, true);
    try {
      const echo = (client: typeof onA, t: string) => client.callTool({ name: 'alpha__echo', arguments: { text: t } });
      assert.equal(text(await echo(onA, 'warm')), 'echo: warm');
      // A call that is not cut costs one round trip: the rate limit's script.
      const before = Number((await sharedHealth(a!.origin)).redisRoundTrips);
      assert.equal(text(await echo(onA, 'one')), 'echo: one');
      assert.equal(Number((await sharedHealth(a!.origin)).redisRoundTrips) - before, 1);
      for (let i = 2; i < BURST; i++) assert.equal(text(await echo(onB, `b${i}`)), `echo: b${i}`);
      await assert.rejects(echo(onA, 'over'), /rate limit: too many calls; retry in \d+ s/);
      const raw = await fetch(b!.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bobToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'alpha__echo' } }),
      });
      assert.equal(raw.status, 429);
      assert.ok(Number(raw.headers.get('retry-after')) >= 1, String(raw.headers.get('retry-after')));
      const body = (await raw.json()) as { id: unknown; error: { code: number; message: string } };
      assert.equal(body.id, 7);
      assert.equal(body.error.code, -32029);
      // One line from each process (written as they go: polled for).
      const limited = await poll('both refusals in the audit log', 10_000, async () => {
        const lines = readFileSync(audit, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.outcome === 'rate-limited');
        return lines.length >= 2 ? lines : undefined;
      });
      assert.ok(
        limited.every((l) => l.sub === 'bob' && l.name === 'alpha__echo' && l.server === ''),
        JSON.stringify(limited),
      );
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });

  test('Redis gone mid-run: clear errors at once, no hang, no crash; calls that need no Redis go on', async () => {
    const carol = await agentOn(a!.url, await idp.tokenFor('carol', RESOURCE), true);
    try {
      await redis.stop();
      await poll('A to see Redis gone', 30_000, async () =>
        (await sharedHealth(a!.origin)).redis === 'unavailable' ? true : undefined,
      );
      // The rate limit falls back to this process's own count: the call is served.
      assert.equal(
        text(
          await withDeadline(
            carol.callTool({ name: 'alpha__echo', arguments: { text: 'still' } }),
            'a small call',
            10_000,
          ),
        ),
        'echo: still',
      );
      const big = await withDeadline(
        carol.callTool({ name: 'alpha__echo', arguments: { text: 'y'.repeat(1000) } }),
        'a call whose result must be kept',
        10_000,
      );
      assert.equal(big.isError, true);
      assert.match(text(big), /shared state \(Redis at redis:\/\/127\.0\.0\.1:\d+\/0\) is unavailable/);
      await assert.rejects(
        withDeadline(
          carol.readResource({ uri: 'mcp-host-result://00000000-0000-0000-0000-000000000000' }),
          'a page read',
          10_000,
        ),
        /Redis at redis:\/\/127\.0\.0\.1:\d+\/0\) is unavailable/,
      );
      assert.equal((await fetch(`${a!.origin}/healthz`)).status, 200);
      assert.equal((await fetch(`${b!.origin}/readyz`)).status, 200);
    } finally {
      await carol.close();
    }
  });
});

describe('serve --http with a Redis it cannot reach', { skip, timeout: 120_000 }, () => {
  test('exits 3 at start, naming the Redis with its password redacted', async () => {
    const config = join(h.dir, 'unreachable.json');
    // A port a Redis had a moment ago: nothing listens there now.
    const gone = await startRedis();
    await gone.stop();
    const closed = gone.port;
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {},
        gateway: {
          auth: { issuer: idp.issuer, resource: RESOURCE },
          redis: { url: `redis://:s3cret-redis-pass@127.0.0.1:${closed}/0` },
        },
      }),
    );
    const r = await h.run(['serve', '--http', '--port', '0', '--config', config], { cwd: h.dir });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /Redis at redis:\/\/(:)?\[redacted\]@127\.0\.0\.1/);
    assert.ok(!r.stderr.includes('s3cret-redis-pass'), r.stderr);
  });
});
