// The rate limit of one team gateway process without Redis (the embedded default): each person's
// calls past the burst are refused with 429 and a JSON-RPC error the agent's SDK shows; another
// person's bucket is their own; lists do not count.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Gateway, MemoryRateLimiter } from '../../../../src/core/gateway/index.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../../connection/helpers.js';
import { text } from '../helpers.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';
import { agentOn } from './gateway-process.js';

let idp: TeamIdp;
let host: McpHost;
let gateway: Gateway;
let service: GatewayService;
const refused: string[] = [];

before(async () => {
  idp = await startTeamIdp();
  const logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('rate-blobs') });
  host.setDefinitions([stdioDef('alpha')]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger });
  service = await GatewayService.start({
    gateway,
    logger,
    auth: { issuer: idp.issuer, requiredScopes: [SCOPE], groupsClaim: 'groups', clockToleranceS: 0 },
    profiles: () => ({}),
    listen: { port: 0 },
    rateLimit: new MemoryRateLimiter({ callsPerMinute: 1, burst: 2 }),
    onRateLimited: (sub, call) => refused.push(`${sub} ${call.method} ${call.name}`),
  });
  service.markReady();
});

after(async () => {
  await service?.dispose();
  await gateway?.dispose();
  await host?.dispose();
  await idp?.close();
});

describe('the rate limit in one process', { timeout: 120_000 }, () => {
  for (const modern of [false, true])
    test(`${modern ? '2026-07-28' : '2025-11-25'}: the burst, then 429 naming the wait; lists do not count`, async () => {
      const who = modern ? 'bob' : 'alice';
      const agent = await agentOn(service.url, await idp.tokenFor(who, service.resource), modern);
      try {
        const echo = (t: string) => agent.callTool({ name: 'alpha__echo', arguments: { text: t } });
        assert.equal(text(await echo('1')), 'echo: 1');
        for (let i = 0; i < 3; i++) assert.ok((await agent.listTools()).tools.length > 0);
        assert.equal(text(await echo('2')), 'echo: 2');
        await assert.rejects(echo('3'), /rate limit: too many calls; retry in (59|60) s/);
        assert.deepEqual(refused.at(-1), `${who} tools/call alpha__echo`);
      } finally {
        await agent.close();
      }
    });
});
