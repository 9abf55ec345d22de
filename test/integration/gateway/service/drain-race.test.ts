// A drain must wait for every request the gateway has taken, also one whose token is still being
// checked (a balancer sent it a moment before it saw the drain): the issuer's keys are held back
// until the drain has begun, and the request must still get its answer, not a closed socket. And a
// drain with a grace period keeps answering 503 (which a balancer retries elsewhere) for that long.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gateway, GatewayViews } from '../../../../src/core/gateway/index.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../../connection/helpers.js';
import { withDeadline } from '../../../support/wait.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

let idp: TeamIdp;
let host: McpHost;
let gateway: Gateway;
let keys: Server;
let asked!: () => void;
let release!: () => void;
const keysAsked = new Promise<void>((r) => (asked = r));
const keysReleased = new Promise<void>((r) => (release = r));

before(async () => {
  idp = await startTeamIdp();
  // The issuer's JWKS, answered only once the test says so.
  keys = createServer((_req, res) => {
    asked();
    void keysReleased.then(async () => {
      const jwks = await (await fetch(`${idp.issuer}/jwks`)).text();
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    });
  });
  await new Promise<void>((r) => keys.listen(0, '127.0.0.1', r));
  const logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('drain-race-blobs') });
  host.setDefinitions([stdioDef('alpha')]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger, views: new GatewayViews({ profiles: () => ({}) }) });
});

after(async () => {
  release();
  await gateway?.dispose();
  await host?.dispose();
  keys?.closeAllConnections();
  await new Promise<void>((r) => (keys ? keys.close(() => r()) : r()));
  await idp?.close();
});

async function start(): Promise<GatewayService> {
  const service = await GatewayService.start({
    gateway,
    logger: new MemoryLogger(),
    auth: {
      issuer: idp.issuer,
      jwksUri: `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`,
      requiredScopes: [SCOPE],
      groupsClaim: 'groups',
      clockToleranceS: 0,
    },
    profiles: () => ({}),
    listen: { port: 0 },
  });
  service.markReady();
  return service;
}

function initialize(service: GatewayService, token: string): Promise<Response> {
  return fetch(`${service.origin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
}

describe('a drain and the requests already taken', { timeout: 60_000 }, () => {
  test('a request whose token is being checked when the drain begins is answered', async () => {
    const service = await start();
    const token = await idp.tokenFor('alice', service.resource);
    const answer = initialize(service, token);
    await withDeadline(keysAsked, 'the gateway to ask for the issuer’s keys', 20_000);
    const drained = service.drain(20_000, 0);
    release();
    const res = await withDeadline(answer, 'the answer', 20_000);
    assert.equal(res.status, 200, 'the request taken before the drain is served, not cut');
    await res.body?.cancel();
    assert.equal(await drained, 0, 'nothing cut off by the deadline');
  });

  test('during the grace period new requests get 503, not a closed socket', async () => {
    const service = await start();
    const token = await idp.tokenFor('alice', service.resource);
    const drained = service.drain(20_000, 5000);
    const began = Date.now();
    // The first second of a 5 s grace: far from its end, where closing the sockets is by design.
    for (let n = 0; n === 0 || Date.now() - began < 1000; n++) {
      const res = await initialize(service, token);
      assert.equal(res.status, 503, 'a refusal the balancer retries on another process');
      assert.equal(res.headers.get('connection'), 'close');
      await res.body?.cancel();
    }
    const state = await Promise.race([drained.then(() => 'closed'), Promise.resolve('answering')]);
    assert.equal(state, 'answering', 'no call open, and the drain still answers until the grace has passed');
    assert.equal(await drained, 0);
  });
});
