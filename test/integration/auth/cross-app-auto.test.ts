// Cross-app access without "grantType" (enterprise/auto.ts) against the loopback IdP and
// authorization servers: one IdP sign-in, then the servers whose AS lists jwt-bearer and is trusted
// by the IdP connect with no browser; one whose AS does not list it, and one whose exchange the
// IdP refuses, fall back to the ordinary sign-in; Sign Out of the IdP knows which servers it served.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHostAuth, createLoopbackReceiver, serverAuthKey } from '../../../src/core/auth/index.js';
import { IdpHandle } from '../../../src/core/auth/enterprise/idp-handle.js';
import { IdpSession } from '../../../src/core/auth/enterprise/idp-session.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FakeBrowser, MemoryKeyValueStore, MemoryLogger, MemorySecretStore } from '../../support/fakes.js';
import { IDP_CLIENT_ID, startCrossAppFixture, type CrossAppFixture } from '../../support/cross-app-fixture.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
let fx: CrossAppFixture;
const hosts: McpHost[] = [];
before(async () => {
  fx = await startCrossAppFixture([
    { name: 'a' },
    { name: 'b' },
    { name: 'plain', acceptsJwtBearer: false },
    { name: 'untrusted', trustedByIdp: false },
  ]);
});
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await fx.close();
});

/** Walks the redirects like a browser, then delivers the last one to the loopback receiver. */
const browser = () =>
  new FakeBrowser((url) => {
    void (async () => {
      const back = await fx.follow(url);
      await (await fetch(back)).body?.cancel();
    })().catch(() => {});
  });

function defs(): ServerDefinition[] {
  return fx.servers.map((s, i) => ({
    name: s.name,
    config: { type: 'http', url: s.mcpUrl, oauth: { clientId: s.clientId } },
    source: { scope: 'user', file: 'test', jsonPath: [] },
    signature: `url:${s.mcpUrl}`,
    hash: String(i),
  }));
}

function setup(withIdp: boolean) {
  const secrets = new MemorySecretStore();
  const logger = new MemoryLogger();
  const b = browser();
  const handle = new IdpHandle();
  const session = new IdpSession(
    { issuer: fx.issuer, clientId: IDP_CLIENT_ID },
    { secrets, browser: b, receiver: createLoopbackReceiver(), logger },
  );
  if (withIdp) handle.set(session);
  const auth = createHostAuth({
    secrets,
    kv: new MemoryKeyValueStore(),
    logger,
    browser: b,
    receiver: createLoopbackReceiver(),
    ...(withIdp ? { enterpriseIdp: handle } : {}),
  });
  const host = createHost({
    logger,
    blobDir: mkdtempSync(join(tmpdir(), 'mcp-host-xaa-')),
    authProvider: (d) => auth.providerFor(d),
  });
  hosts.push(host);
  const list = defs();
  host.setDefinitions(list);
  const byName = (n: string) => list.find((d) => d.name === n)!;
  const state = (n: string) => host.server(n)!.state.kind;
  const whoami = async (n: string) =>
    (await host.callTool(n, 'whoami', {})).content.map((c) => ('text' in c ? c.text : '')).join('');
  const restartAll = async () => {
    for (const d of list) {
      await auth.clearNeedsAuth(d);
      await host.restart(d.name);
    }
    await host.whenSettled();
  };
  return { auth, host, session, b, secrets, logger, byName, state, whoami, restartAll };
}

describe('cross-app access detected from the authorization server', { timeout: 120_000 }, () => {
  test('one IdP sign-in: AS that take jwt-bearer connect without a browser, the others fall back to the ordinary sign-in', async () => {
    const s = setup(true);
    await s.host.whenSettled();
    for (const n of ['a', 'b', 'plain', 'untrusted']) assert.equal(s.state(n), 'needs-auth', n);

    await s.session.signIn();
    assert.equal(s.b.opened.length, 1, 'the IdP sign-in');
    await s.restartAll();
    for (const n of ['a', 'b']) {
      assert.equal(s.state(n), 'connected', JSON.stringify([n, s.host.server(n)!.state, s.logger.lines.slice(-6)]));
      assert.equal(await s.whoami(n), `hello alice via ${JWT_BEARER}`);
      assert.equal(await s.auth.viaIdp(s.byName(n)), true);
    }
    assert.equal(s.b.opened.length, 1, 'no further browser sign-in for a and b');
    assert.equal(s.state('plain'), 'needs-auth');
    assert.equal(s.state('untrusted'), 'needs-auth', 'the refused exchange leaves the ordinary sign-in');
    assert.ok(!fx.servers.find((x) => x.name === 'plain')!.grants.includes(JWT_BEARER), 'never tried where not listed');
    assert.ok(s.logger.lines.some((l) => /untrusted: cross-app access failed .*invalid_target/.test(l)));

    // The fallback: Authenticate runs the ordinary browser sign-in for both.
    for (const n of ['plain', 'untrusted']) {
      await s.auth.authenticate(s.byName(n));
      await s.host.restart(n);
      await s.host.whenSettled();
      assert.equal(s.state(n), 'connected', n);
      assert.equal(await s.whoami(n), 'hello alice via authorization_code');
      assert.equal(await s.auth.viaIdp(s.byName(n)), false);
    }
    assert.equal(s.b.opened.length, 3);
    const idToken = JSON.parse([...s.secrets.map.values()].find((v) => v.includes('idToken'))!) as {
      idToken: string;
    };
    assert.ok(!s.logger.lines.some((l) => l.includes(idToken.idToken)), 'the ID token is never logged');

    // Sign Out of a served server forgets the verdict with the tokens.
    await s.auth.signOut(s.byName('a'));
    assert.equal(s.secrets.map.get(serverAuthKey(s.byName('a'))), undefined);
  });

  test('without a company IdP nothing is detected: the same servers need the ordinary sign-in', async () => {
    const s = setup(false);
    await s.host.whenSettled();
    assert.equal(s.state('a'), 'needs-auth');
    assert.equal(await s.auth.viaIdp(s.byName('a')), false);
    assert.equal(s.b.opened.length, 0);
  });
});
