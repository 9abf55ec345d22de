// Enterprise-managed authorization in real VS Code (code-server): with `mcpHost.enterpriseIdp`
// set, two servers (configured clientId, no grantType) whose authorization servers take the
// company IdP's jwt-bearer grant wait for a sign-in; one Sign In to the Company Identity Provider
// (OIDC + PKCE through openExternal and code-server's /callback, like Authenticate) and both
// connect with no further tab or prompt; Sign Out of the IdP sends both back to needs-auth.
// The IdP and authorization servers are the loopback fixture the integration tests use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { IDP_CLIENT_ID, startCrossAppFixture, type CrossAppFixture } from '../support/cross-app-fixture.js';
import { startVSCode, stepRunner, type VSCode } from './harness.js';
import { poll } from './support/workbench.js';
import { rowText } from './support/views.js';

/** code-server opens a loopback URL through its port proxy; map it back to the real origin. */
function unproxy(opened: URL): URL {
  const m = /^\/proxy\/(\d+)(\/.*)?$/.exec(opened.pathname);
  if (!m) return opened;
  return new URL(`http://127.0.0.1:${m[1]}${m[2] ?? '/'}${opened.search}`);
}

test(
  'enterprise IdP in code-server: one IdP sign-in, two servers connect without a prompt, Sign Out of the IdP',
  { timeout: 900_000 },
  async (t) => {
    const fx: CrossAppFixture = await startCrossAppFixture([{ name: 'alpha' }, { name: 'beta' }]);
    t.after(() => fx.close());
    const servers = Object.fromEntries(
      fx.servers.map((s) => [s.name, { type: 'http', url: s.mcpUrl, oauth: { clientId: s.clientId } }]),
    );
    const v: VSCode = await startVSCode({
      workspace: 'empty',
      name: 'enterprise-idp',
      settings: {
        'mcpHost.servers': servers,
        'mcpHost.enterpriseIdp': { issuer: fx.issuer, clientId: IDP_CLIENT_ID },
      },
    });
    t.after(() => v.dispose());
    const step = stepRunner(t, v, () => {
      t.diagnostic(`host log:\n${v.readLogFile('MCP Host') ?? '(none)'}`);
      t.diagnostic(
        `IdP requests: ${fx.idpRequests.join(' ')}; AS grants: ${JSON.stringify(fx.servers.map((s) => s.grants))}`,
      );
    });

    const opened: Page[] = [];
    v.page.context().on('page', (p) => opened.push(p));
    // Tabs the workbench opens at the IdP get a stub page: the test plays the browser (fx.follow).
    await v.page.context().route(
      (u) => unproxy(u).origin === fx.issuer,
      (route) => void route.fulfill({ status: 200, contentType: 'text/html', body: '<p>IdP (held by the test)</p>' }),
    );
    // code-server keeps only the port of a loopback URL handed to openExternal, so the full
    // authorization URL is read from the frames the workbench receives.
    const authUrls: string[] = [];
    const pattern = new RegExp(
      `${fx.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/authorize\\?[^"\\\\\\s\\x00-\\x1f]+`,
      'g',
    );
    const cdp = await v.page.context().newCDPSession(v.page);
    cdp.on('Network.webSocketFrameReceived', (e: { response: { opcode: number; payloadData: string } }) => {
      const text =
        e.response.opcode === 2
          ? Buffer.from(e.response.payloadData, 'base64').toString('latin1')
          : e.response.payloadData;
      for (const m of text.matchAll(pattern)) if (!authUrls.includes(m[0])) authUrls.push(m[0]);
    });
    await cdp.send('Network.enable');

    await step('both servers wait for a sign-in', async () => {
      await v.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await v.focusMcpHostView();
      for (const n of ['alpha', 'beta'])
        assert.match(await rowText(v, new RegExp(`${n}.*needs authentication`)), /needs authentication/);
      await v.waitForLogFile('MCP Host', /company identity provider http:\/\/127\.0\.0\.1:\d+ \(from settings/, 30_000);
    });

    await step('one IdP sign-in and both servers connect through the exchange, no further tab', async () => {
      await v.runCommand('MCP Host: Sign In to the Company Identity Provider');
      const tab = await poll('the tab the IdP sign-in opens', 120_000, async () => opened[0]);
      const authUrl = new URL(await poll('the IdP authorization URL', 60_000, async () => authUrls[0]));
      assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.match(authUrl.searchParams.get('scope') ?? '', /\bopenid\b/);
      const redirect = await fx.follow(authUrl.href);
      assert.equal(redirect.origin, new URL(v.url).origin, `back to the workbench: ${redirect.origin}`);
      await tab.goto(redirect.href, { waitUntil: 'load' });
      await v.waitForLogFile('MCP Host', /signed in to the identity provider/, 60_000);
      for (const n of ['alpha', 'beta']) assert.match(await rowText(v, new RegExp(`${n}.*1 tool`)), /1 tool/);
      assert.equal(opened.length, 1, 'no tab besides the IdP sign-in');
      assert.deepEqual(
        fx.idpRequests.filter((r) => r === 'authorize'),
        ['authorize'],
        'one interactive sign-in',
      );
      for (const s of fx.servers)
        assert.ok(s.grants.includes('urn:ietf:params:oauth:grant-type:jwt-bearer'), `${s.name} got a jwt-bearer grant`);
      await v.screenshot('connected');
    });

    await step('Sign Out of the IdP signs both servers out', async () => {
      await v.runCommand('MCP Host: Sign Out of the Company Identity Provider');
      for (const n of ['alpha', 'beta'])
        assert.match(await rowText(v, new RegExp(`${n}.*needs authentication`)), /needs authentication/);
      await v.waitForLogFile('MCP Host', /signed out of the identity provider/, 30_000);
    });
  },
);
