// OAuth in real VS Code (code-server): a remote server behind a real authorization server
// (oidc-provider, test/integration/auth/oidc-fixture.ts) shows `needs-auth`; Authenticate opens
// the authorization URL in a new browser tab (caught here and followed like a browser), the
// redirect comes back through code-server's /callback to the extension's UriHandler and the
// server connects; after a reload it connects from SecretStorage without asking; Sign Out sends
// it back to `needs-auth`; no token is found in the logs, the user settings or the workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import type { Page } from 'playwright-core';
import { startOidcFixture, type OidcFixture } from '../integration/auth/oidc-fixture.js';
import { startVSCode, stepRunner, type VSCode } from './harness.js';
import { poll } from './support/workbench.js';
import { filesUnder } from './support/files.js';
import { liveRowText, rowText, watchFor } from './support/views.js';

/**
 * code-server opens a loopback URL given to `openExternal` through its port proxy
 * (`http://HOST/proxy/PORT/path` for `http://127.0.0.1:PORT/path`); the authorization server's own
 * relative redirects and cookies only work on its real origin, so map the URL back.
 */
function unproxy(opened: URL): URL {
  const m = /^\/proxy\/(\d+)(\/.*)?$/.exec(opened.pathname);
  if (!m) return opened;
  return new URL(`http://127.0.0.1:${m[1]}${m[2] ?? '/'}${opened.search}`);
}

test(
  'OAuth in code-server: needs-auth, Authenticate, reload keeps the sign-in, Sign Out, no token on disk',
  { timeout: 900_000 },
  async (t) => {
    const fx: OidcFixture = await startOidcFixture();
    // Every token the authorization server hands out, to look for them later.
    const tokens: { kind: string; value: string }[] = [];
    // oidc-provider is a Koa app (an EventEmitter); the local typings leave that out.
    (fx.provider as unknown as EventEmitter).on('grant.success', (ctx: { body?: Record<string, unknown> }) => {
      for (const kind of ['access_token', 'refresh_token', 'id_token'] as const) {
        const v = ctx.body?.[kind];
        if (typeof v === 'string' && v.length > 0) tokens.push({ kind, value: v });
      }
    });

    t.after(() => fx.close());
    // startVSCode cleans up after itself when it fails; once it returns, dispose() is ours.
    const v: VSCode = await startVSCode({
      workspace: 'oauth',
      name: 'oauth',
      env: { MCP_HOST_E2E_OAUTH_URL: fx.mcpUrl },
    });
    t.after(() => v.dispose());

    const step = stepRunner(t, v, () => {
      t.diagnostic(`host log:\n${v.readLogFile('MCP Host') ?? '(none)'}`);
      t.diagnostic(`server log:\n${v.readLogFile('MCP Host secure') ?? v.readLogFile('MCP Host: secure') ?? '(none)'}`);
      t.diagnostic(
        `MCP requests: ${JSON.stringify(fx.mcpRequests)}; tabs: ${opened.map((p) => p.url().replace(/([?&](code|state)=)[^&]+/g, '$1…')).join(' ')}; auth requests: ${authRequests.join(' ')}; extension opened: ${extensionOpened.length}`,
      );
    });

    // Browser tabs the workbench opens (openExternal), in order.
    const opened: Page[] = [];
    v.page.context().on('page', (p) => opened.push(p));
    // Requests any tab makes to the authorization server are answered here with a stub page and
    // recorded: the test itself plays the user's browser at the authorization server (fx.follow),
    // so exactly one authorization code is issued per sign-in.
    const authRequests: string[] = [];
    await v.page.context().route(
      (u) => unproxy(u).origin === fx.issuer,
      (route) => {
        authRequests.push(route.request().url());
        void route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<p>authorization page (held by the test)</p>',
        });
      },
    );

    // What the extension hands to `env.openExternal` travels from the extension host to the
    // workbench over code-server's WebSocket. code-server 4.100.3 rewrites a loopback URL opened
    // that way to its port proxy and keeps only the port: `http://127.0.0.1:PORT/auth?…` opens as
    // `http://HOST/proxy/PORT/`, without path and query. So the authorization URL is read from the
    // frames the workbench receives (Chrome DevTools Protocol) and followed from there.
    const extensionOpened: string[] = [];
    const authUrlPattern = new RegExp(
      `${fx.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auth\\?[^"\\\\\\s\\x00-\\x1f]+`,
      'g',
    );
    const cdp = await v.page.context().newCDPSession(v.page);
    cdp.on('Network.webSocketFrameReceived', (e: { response: { opcode: number; payloadData: string } }) => {
      const text =
        e.response.opcode === 2
          ? Buffer.from(e.response.payloadData, 'base64').toString('latin1')
          : e.response.payloadData;
      for (const m of text.matchAll(authUrlPattern)) if (!extensionOpened.includes(m[0])) extensionOpened.push(m[0]);
    });
    await cdp.send('Network.enable');

    /** Waits for the tab Authenticate opens, follows the authorization URL and delivers the redirect. */
    async function completeSignIn(): Promise<{ opened: string; authUrl: URL; redirect: URL }> {
      const seenTabs = opened.length;
      const seenUrls = extensionOpened.length;
      const tab = await poll('a browser tab opened by Authenticate', 120_000, async () => opened[seenTabs]);
      const openedUrl = await poll('the tab to load the authorization server (through the proxy)', 60_000, async () =>
        authRequests.at(-1),
      );
      assert.equal(
        unproxy(new URL(openedUrl)).origin,
        fx.issuer,
        `the tab leads to the authorization server: ${openedUrl}`,
      );
      const authUrl = new URL(
        await poll('the authorization URL the extension opened', 30_000, async () => extensionOpened[seenUrls]),
      );
      assert.equal(authUrl.searchParams.get('response_type'), 'code');
      assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(authUrl.searchParams.get('code_challenge'), 'PKCE challenge sent');
      assert.ok(authUrl.searchParams.get('state'), 'state sent');
      assert.equal(authUrl.searchParams.get('resource'), fx.mcpUrl);
      const redirect = await fx.follow(authUrl.href);
      assert.equal(
        redirect.origin,
        new URL(v.url).origin,
        `the redirect goes back to the workbench: ${redirect.origin}${redirect.pathname}`,
      );
      // code-server's /callback hands the redirect to the extension's UriHandler; open it in the tab
      // like the browser would.
      await tab.goto(redirect.href, { waitUntil: 'load' });
      return { opened: openedUrl, authUrl, redirect };
    }

    await step('the server behind OAuth is approved and shows needs-auth', async () => {
      await v.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      const dialog = v.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 120_000 });
      const text = await v.clickDialogButton('Allow');
      assert.match(text, /secure/);
      assert.match(await rowText(v, /secure.*needs authentication/), /needs authentication/);
      assert.ok(
        fx.mcpRequests.length > 0 && fx.mcpRequests.every((r) => !r.authorized),
        'the server was asked and refused without a token',
      );
      await v.screenshot('needs-auth');
    });

    await step(
      "Authenticate from the tree row's inline button runs the flow through the browser and the server connects",
      async () => {
        await v.inlineAction(/secure.*needs authentication/, 'Authenticate');
        const started = Date.now();
        const { opened: openedUrl, authUrl, redirect } = await completeSignIn();
        const redirected = Date.now();
        t.diagnostic(
          `extension opened ${authUrl.origin}${authUrl.pathname}?…; the tab showed ${openedUrl}; redirect back to ${redirect.origin}${redirect.pathname}`,
        );
        assert.match(await rowText(v, /secure.*1 tool/), /1 tool/);
        t.diagnostic(
          `browser flow ${redirected - started} ms, connected ${Date.now() - redirected} ms after the redirect`,
        );
        assert.ok(
          fx.mcpRequests.some((r) => r.authorized),
          'the MCP server saw a valid token',
        );
        assert.ok(
          tokens.some((x) => x.kind === 'access_token'),
          'an access token was issued',
        );
        await v.waitForLogFile('MCP Host', /secure: signed in/, 30_000);
        await v.screenshot('connected');
      },
    );

    await step('after a reload the server connects from the stored tokens without asking', async () => {
      const tabsBefore = opened.length;
      const authorizedBefore = fx.mcpRequests.filter((r) => r.authorized).length;
      const grantsBefore = tokens.length;
      for (const p of opened) await p.close().catch(() => undefined);
      await v.reload();
      const prompts = watchFor(v.page.locator('.monaco-dialog-box'));
      await v.focusMcpHostView();
      // Connected and listed, not the last run's cached list: the reconnect has happened.
      assert.match(await liveRowText(v, 'secure', /1 tool/), /1 tool/);
      assert.ok(
        fx.mcpRequests.filter((r) => r.authorized).length > authorizedBefore,
        'the reconnect carried a valid token',
      );
      assert.equal(opened.length, tabsBefore, 'no browser tab was opened');
      assert.equal(tokens.length, grantsBefore, 'no new grant: the stored token was used');
      assert.equal(await prompts.stop(), undefined, 'no approval prompt after reload');
    });

    await step('Sign Out from the palette revokes the tokens and sends the server back to needs-auth', async () => {
      assert.match(await rowText(v, /secure/), /1 tool/);
      await v.runCommand('MCP Host: Sign Out');
      await v.pickQuickItem('secure');
      assert.match(await rowText(v, /secure.*needs authentication/), /needs authentication/);
      const log = await v.waitForLogFile('MCP Host', /secure: signed out; stored tokens removed/, 30_000);
      // oidc-provider offers RFC 7009 revocation: Sign Out used it before forgetting the tokens.
      assert.match(
        log,
        /secure: refresh_token and access_token revoked at the authorization server|secure: access_token revoked at the authorization server/,
      );
      await v.screenshot('signed-out');
    });

    await step('Authenticate from the context menu signs in again', async () => {
      const grantsBefore = tokens.length;
      await v.contextAction(/secure.*needs authentication/, 'Authenticate');
      await completeSignIn();
      assert.match(await rowText(v, /secure.*1 tool/), /1 tool/);
      assert.ok(tokens.length > grantsBefore, 'a new token was issued for the new sign-in');
    });

    await step('no token in the extension logs, the user settings or the workspace', async () => {
      assert.ok(tokens.length >= 1, 'tokens were issued');
      const logFiles = filesUnder(join(v.userDataDir, 'logs'));
      const ours = logFiles.filter((f) => /MCP Host/.test(f));
      assert.ok(ours.length >= 2, `the extension's log files were found: ${ours.join(', ')}`);
      const files = [
        ...logFiles,
        ...filesUnder(join(v.userDataDir, 'User')).filter((f) => /settings\.json$|\.json$/.test(f)),
        ...filesUnder(v.workspaceDir),
      ];
      assert.ok(
        files.some((f) => f.endsWith(join('User', 'settings.json'))),
        'the user settings were searched',
      );
      const hits: string[] = [];
      for (const f of files) {
        const content = readFileSync(f, 'latin1');
        for (const tok of tokens) if (content.includes(tok.value)) hits.push(`${tok.kind} in ${f}`);
      }
      for (const tok of tokens) if (v.logs().includes(tok.value)) hits.push(`${tok.kind} in code-server's output`);
      assert.deepEqual(hits, []);
      // The search covered the sessions that signed in and out (the reload started a new log folder).
      const hostLogs = ours.map((f) => readFileSync(f, 'utf8')).join('\n');
      assert.match(hostLogs, /secure: signed in/);
      assert.match(hostLogs, /secure: signed out/);
      t.diagnostic(
        `searched ${files.length} files for ${tokens.length} token(s) (${[...new Set(tokens.map((x) => x.kind))].join(', ')})`,
      );
    });
  },
);
