// The enterprise IdP sign-in against a real OpenID provider (oidc-provider 9 playing the company
// IdP): authorization code with PKCE through the loopback receiver, ID and refresh tokens in the
// secret store, the ID token renewed through the refresh grant once it expires (a clock that moves),
// and a refused renewal leaving the user signed out rather than stuck.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLoopbackReceiver } from '../../../src/core/auth/index.js';
import { IdpSession } from '../../../src/core/auth/enterprise/idp-session.js';
import type { BrowserOpener, Clock, Logger, SecretStore } from '../../../src/core/ports.js';
import { IDE_CLIENT_ID, startOidcFixture, type OidcFixture } from './oidc-fixture.js';

let idp: OidcFixture;
before(async () => {
  idp = await startOidcFixture();
});
after(() => idp?.close());

const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function memorySecrets(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    store: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
  };
}

/** Follows the IdP's login and consent like a browser, then delivers the redirect to the receiver. */
function browser(): BrowserOpener & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async open(url) {
      opened.push(url);
      void (async () => {
        const back = await idp.follow(url);
        await (await fetch(back)).body?.cancel();
      })().catch(() => {});
      return true;
    },
  };
}

const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('enterprise IdP sign-in', () => {
  test('sign in once (PKCE), the ID token is kept, renewed by refresh when it expires, and gone after sign-out', async () => {
    const secrets = memorySecrets();
    let offset = 0;
    const clock: Clock = {
      now: () => Date.now() + offset,
      setTimeout: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return { dispose: () => clearTimeout(t) };
      },
    };
    const b = browser();
    const session = new IdpSession(
      { issuer: idp.issuer, clientId: IDE_CLIENT_ID },
      { secrets, browser: b, receiver: createLoopbackReceiver(), logger: quiet, clock },
    );
    assert.equal(await session.idToken(), undefined);
    await session.signIn();
    const auth = new URL(b.opened[0]!);
    assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
    assert.match(auth.searchParams.get('scope')!, /\bopenid\b.*\boffline_access\b/);

    const first = await session.idToken();
    assert.ok(first);
    assert.equal(claims(first).iss, idp.issuer);
    assert.equal(claims(first).aud, IDE_CLIENT_ID);
    assert.equal(await session.idToken(), first, 'not renewed while valid');
    const stored = JSON.parse([...secrets.data.values()][0]!) as { refreshToken?: string };
    assert.ok(stored.refreshToken);
    assert.equal(await session.tokenEndpoint(), `${idp.issuer}/token`);

    // Past its expiry: the next use renews it with the refresh token (rotated by the IdP).
    offset = 2 * 3600_000;
    const [renewed, again] = await Promise.all([session.idToken(), session.idToken()]);
    // Issued within the same second an ID token can be byte-identical; the rotated refresh token proves the grant ran.
    assert.ok(renewed);
    assert.equal(claims(renewed).sub, claims(first).sub);
    assert.equal(again, renewed, 'concurrent uses share one renewal');
    const after = JSON.parse([...secrets.data.values()][0]!) as { refreshToken?: string };
    assert.notEqual(after.refreshToken, stored.refreshToken);
    assert.equal(b.opened.length, 1, 'no second browser sign-in');

    await session.signOut();
    assert.equal(await session.idToken(), undefined);
    assert.equal(secrets.data.size, 0);
  });

  test('a refused renewal (refresh token revoked at the IdP) signs out instead of failing forever', async () => {
    const secrets = memorySecrets();
    let offset = 0;
    const clock: Clock = {
      now: () => Date.now() + offset,
      setTimeout: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return { dispose: () => clearTimeout(t) };
      },
    };
    const session = new IdpSession(
      { issuer: idp.issuer, clientId: IDE_CLIENT_ID },
      { secrets, browser: browser(), receiver: createLoopbackReceiver(), logger: quiet, clock },
    );
    await session.signIn();
    const record = JSON.parse([...secrets.data.values()][0]!) as { refreshToken: string };
    await (await idp.provider.RefreshToken.find(record.refreshToken))!.destroy();
    offset = 2 * 3600_000;
    assert.equal(await session.idToken(), undefined);
    assert.equal(await session.signedIn(), false);
  });
});
