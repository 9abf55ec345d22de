// Two `mcp-host serve --http` processes sharing one real redis-server, no balancer in front: an
// agent listening on A hears a list change that arose on B. Each process runs its own copy of the
// stdio fixture, so a tool added on B's copy is a change only B sees itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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

before(async () => {
  if (skip) return;
  [h, idp, redis] = await Promise.all([createHarness(), startTeamIdp(), startRedis()]);
  const config = join(h.dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: { command: process.execPath, args: [STDIO, '--name', 'alpha'] } },
      gateway: {
        auth: { issuer: idp.issuer, requiredScopes: [SCOPE], resource: RESOURCE },
        redis: { url: `${redis.url}/0`, keyPrefix: 'cluster-test:' },
      },
    }),
  );
  const ws = await h.workspace('cluster', {});
  [a, b] = await Promise.all([startGatewayProcess(h, config, ws, 'A'), startGatewayProcess(h, config, ws, 'B')]);
  token = await idp.tokenFor('alice', RESOURCE);
});

after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await idp?.close();
  await h?.dispose();
});

describe('two gateway processes, one Redis', { skip, timeout: 180_000 }, () => {
  test('a subscriptions/listen on A hears a list change that arose on B', async () => {
    const onA = await agentOn(a!.url, token, true);
    const onB = await agentOn(b!.url, token, true);
    try {
      const heard = new Promise<void>((resolve) =>
        onA.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
      );
      const sub = await onA.listen({ toolsListChanged: true });
      try {
        // B serves this view before the change (its endpoint publishes the view's changes).
        await poll('alpha on B', 30_000, async () =>
          (await onB.listTools()).tools.some((t) => t.name === 'alpha__add_tool') ? true : undefined,
        );
        assert.equal(
          text(await onB.callTool({ name: 'alpha__add_tool', arguments: { name: 'only_on_b' } })),
          'added only_on_b',
        );
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
});
