// The drain's bookkeeping in process: a held GET stream is not an open call (it would hold every
// drain to its deadline), a slow call is; a call still open at the deadline is cut and counted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Gateway } from '../../../../src/core/gateway/index.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../../connection/helpers.js';
import { withDeadline } from '../../../support/wait.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

let idp: TeamIdp;
let host: McpHost;
let gateway: Gateway;
let service: GatewayService;

before(async () => {
  idp = await startTeamIdp();
  const logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('team-drain-blobs') });
  host.setDefinitions([stdioDef('alpha')]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger });
  service = await GatewayService.start({
    gateway,
    logger,
    auth: { issuer: idp.issuer, requiredScopes: [SCOPE], groupsClaim: 'groups', clockToleranceS: 0 },
    profiles: () => ({}),
    listen: { port: 0 },
  });
  service.markReady();
});

after(async () => {
  await service?.dispose();
  await gateway?.dispose();
  await host?.dispose();
  await idp?.close();
});

/**
 * That the session holds a GET stream open: this one (200), or the SDK client's own, opened after
 * `initialized` (409: one per session), whichever came first.
 */
function holdStream(token: string, session: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${service.url}`,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
      },
      (res) => {
        if (res.statusCode !== 200 && res.statusCode !== 409) reject(new Error(`GET stream: ${res.statusCode}`));
        res.resume();
        resolve(() => req.destroy());
      },
    );
    req.on('error', () => undefined);
    req.end();
  });
}

test('streams do not hold a drain; a call past the deadline is cut and counted', { timeout: 60_000 }, async () => {
  const token = await idp.tokenFor('alice', service.resource);
  const client = new Client({ name: 'drain-deadline', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(service.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const release = await holdStream(token, transport.sessionId!);
  let progressed!: () => void;
  const underWay = new Promise<void>((resolve) => (progressed = resolve));
  const call = client
    .callTool(
      { name: 'alpha__slow', arguments: { ms: 60_000, steps: 60 } },
      { onprogress: () => progressed(), timeout: 90_000 },
    )
    .catch((err: unknown) => err);
  await withDeadline(underWay, 'the slow call under way', 30_000);
  assert.equal(service.openCalls(), 1, 'the call is open; the GET stream is not a call');
  const cut = await service.drain(300);
  assert.equal(cut, 1, 'the call still open at the deadline is cut');
  release();
  // The cut call's agent hears only a dropped stream (it may wait to resume it): closing it ends the call.
  await client.close().catch(() => undefined);
  assert.ok((await call) instanceof Error, 'the cut call did not complete');
});
