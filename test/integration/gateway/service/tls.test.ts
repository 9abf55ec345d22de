// The team gateway over TLS with a certificate made for the test (openssl): health, the protected
// resource metadata naming an https resource, and an agent refused then served over https; and
// the rule for leaving loopback (an explicit flag, and TLS or an explicit insecure opt-in).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Gateway } from '../../../../src/core/gateway/index.js';
import { GatewayService } from '../../../../src/core/gateway/service/service.js';
import { listenRefusal } from '../../../../src/core/gateway/service/listen.js';
import { createHost, type McpHost } from '../../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../../connection/helpers.js';
import { requireTool } from '../../../support/system-tool.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

const skip = requireTool('openssl', 'apt-get install openssl');
let idp: TeamIdp;
let host: McpHost;
let gateway: Gateway;
let service: GatewayService;
let ca: Buffer;

before(async () => {
  if (skip) return;
  const dir = tempDir('team-tls');
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(cert);
  idp = await startTeamIdp();
  const logger = new MemoryLogger();
  host = createHost({ logger, blobDir: tempDir('team-tls-blobs') });
  host.setDefinitions([stdioDef('alpha')]);
  await host.whenSettled();
  gateway = new Gateway({ host, logger });
  service = await GatewayService.start({
    gateway,
    logger,
    auth: { issuer: idp.issuer, requiredScopes: [SCOPE], groupsClaim: 'groups', clockToleranceS: 0 },
    profiles: () => ({}),
    listen: { port: 0, tls: { certFile: cert, keyFile: key } },
  });
  service.markReady();
});

after(async () => {
  await service?.dispose();
  await gateway?.dispose();
  await host?.dispose();
  await idp?.close();
});

/** One request over https trusting only the test's certificate. */
function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(
      `${service.origin}${path}`,
      { method: init.method ?? 'GET', headers: init.headers, ca },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the team gateway over TLS', { timeout: 60_000, skip }, () => {
  test('serves health and an https resource, refuses without a token and serves with one', async () => {
    assert.match(service.origin, /^https:\/\//);
    assert.equal((await call('/healthz')).status, 200);
    assert.equal((await call('/readyz')).status, 200);
    const meta = JSON.parse((await call('/.well-known/oauth-protected-resource/mcp')).body) as { resource: string };
    assert.equal(meta.resource, `${service.origin}/mcp`);
    const init = {
      method: 'POST',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'tls', version: '0' } },
      }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    };
    const refused = await call('/mcp', init);
    assert.equal(refused.status, 401);
    assert.match(String(refused.headers['www-authenticate']), /resource_metadata="https:\/\//);
    const token = await idp.tokenFor('alice', service.resource);
    const served = await call('/mcp', { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    assert.equal(served.status, 200, served.body);
    assert.match(served.body, /"serverInfo"/);
  });
});

describe('leaving loopback', () => {
  test('needs --allow-remote, and TLS or --insecure-http', () => {
    assert.equal(listenRefusal({}), undefined);
    assert.equal(listenRefusal({ host: '127.0.0.1' }), undefined);
    assert.equal(listenRefusal({ host: '::1' }), undefined);
    assert.match(listenRefusal({ host: '0.0.0.0' }) ?? '', /--allow-remote/);
    assert.match(listenRefusal({ host: '0.0.0.0', allowRemote: true }) ?? '', /--tls-cert/);
    assert.equal(listenRefusal({ host: '0.0.0.0', allowRemote: true, insecureHttp: true }), undefined);
    assert.equal(
      listenRefusal({ host: '10.0.0.5', allowRemote: true, tls: { certFile: 'c', keyFile: 'k' } }),
      undefined,
    );
  });
});
