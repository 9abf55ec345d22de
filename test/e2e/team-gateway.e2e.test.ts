// MCP Host as a client of a team gateway in real VS Code (code-server), tried as a new user would:
// a real `mcp-host serve --http` process (the built CLI) serves three servers to people the real
// authorization server (oidc-provider, with its own login and consent pages) signs in; the managed
// policy file names the gateway; a fresh VS Code shows it waiting for a sign-in, Authenticate opens
// the browser, the person types a login on the identity provider's page once, and the gateway's
// servers appear under it (only the ones their group's profile gives), a tool called from the
// palette answers through the gateway, and the editor's own gateway offers it to agents (the chat
// hand-off) under the same name scheme as any server's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startTeamIdp, SCOPE } from '../integration/gateway/service/team-idp.js';
import { poll, repoRoot, startVSCode, stepRunner, type VSCode } from './harness.js';
import { withGatewayClient } from './support/gateway-client.js';
import { answerInput, escapeRegExp, previewText, quickInput, runCommandThenPick } from './support/quick-input.js';
import { rowText } from './support/views.js';

const STDIO = join(repoRoot, 'test', 'fixtures', 'servers', 'stdio-server.mjs');
const CLI = join(repoRoot, 'dist', 'cli.js');

/** The team gateway as an operator runs it: its own folder and HOME, configured by one file. */
async function startTeamGateway(
  root: string,
  issuer: string,
): Promise<{ url: string; stop(): Promise<void>; log(): string }> {
  const config = join(root, 'gateway.json');
  const server = (name: string) => ({ command: process.execPath, args: [STDIO, '--name', name] });
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: server('alpha'), beta: server('beta'), gamma: server('gamma') },
      gateway: {
        auth: { issuer, requiredScopes: [SCOPE] },
        profiles: {
          eng: { servers: ['alpha', 'beta'], groups: ['engineering'] },
          ops: { servers: ['gamma'], groups: ['ops'] },
        },
      },
    }),
  );
  const proc = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--config', config], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: root, MCP_HOST_BLOB_DIR: join(root, 'blobs') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const url = await poll('the team gateway to say where it listens', 90_000, async () => {
      if (proc.exitCode !== null) throw new Error(`serve --http exited ${proc.exitCode}:\n${stderr}`);
      return /listening on (\S+)/.exec(stderr)?.[1];
    });
    await poll('the team gateway to be ready', 60_000, async () =>
      (await fetch(`${new URL(url).origin}/readyz`)).status === 200 ? true : undefined,
    );
    return { url, stop, log: () => stderr };
  } catch (e) {
    await stop();
    throw e;
  }
}

test(
  'team gateway in code-server: the managed policy names it, one sign-in at the IdP’s page, its servers under it, a palette call',
  { timeout: 900_000 },
  async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'team-gateway-e2e-'));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const idp = await startTeamIdp({ devInteractions: true });
    t.after(() => idp.close());
    const gateway = await startTeamGateway(root, idp.issuer);
    t.after(() => gateway.stop());
    const managed = join(root, 'managed.json');
    writeFileSync(managed, JSON.stringify({ teamGateway: { url: gateway.url, name: 'Acme Tools' } }, null, 2));
    // The editor's own gateway (for agents and VS Code's chat) writes its discovery file here.
    const agentsHome = join(root, 'mcp-host-home');

    const v: VSCode = await startVSCode({
      workspace: 'empty',
      name: 'team-gateway',
      // An administrator's file, where this machine's settings say it is (a remote window, code-server's
      // included, reads machine-scoped settings from the machine, not from the user's settings).
      machineSettings: { 'mcpHost.managedConfigPath': managed },
      env: { MCP_HOST_HOME: agentsHome },
    });
    t.after(() => v.dispose());
    const step = stepRunner(t, v, () => {
      t.diagnostic(`host log:\n${v.readLogFile('MCP Host') ?? '(none)'}`);
      t.diagnostic(`team gateway log:\n${gateway.log()}`);
    });

    const opened: Page[] = [];
    v.page.context().on('page', (p) => opened.push(p));
    // code-server opens a loopback URL handed to openExternal through its port proxy, keeping only
    // the port; that tab gets a stub, and the full authorization URL is read from the frames the
    // workbench receives, then opened in the same tab at the IdP's real origin, as a browser would.
    const idpPort = new URL(idp.issuer).port;
    await v.page.context().route(
      (u) => u.pathname.startsWith(`/proxy/${idpPort}`),
      (route) => void route.fulfill({ status: 200, contentType: 'text/html', body: '<p>(proxied; see below)</p>' }),
    );
    const authUrls: string[] = [];
    const pattern = new RegExp(`${escapeRegExp(idp.issuer)}/auth\\?[^"\\\\\\s\\x00-\\x1f]+`, 'g');
    const cdp = await v.page.context().newCDPSession(v.page);
    cdp.on('Network.webSocketFrameReceived', (e: { response: { opcode: number; payloadData: string } }) => {
      const text =
        e.response.opcode === 2
          ? Buffer.from(e.response.payloadData, 'base64').toString('latin1')
          : e.response.payloadData;
      for (const m of text.matchAll(pattern)) if (!authUrls.includes(m[0])) authUrls.push(m[0]);
    });
    await cdp.send('Network.enable');

    await step('a new user’s MCP Host shows the team gateway, waiting for a sign-in', async () => {
      await v.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await v.focusMcpHostView();
      assert.match(await rowText(v, /Acme Tools.*team gateway · needs authentication/), /needs authentication/);
    });

    await step('one sign-in: Authenticate, the login page of the identity provider, back to VS Code', async () => {
      await v.inlineAction(/Acme Tools.*needs authentication/, 'Authenticate');
      const tab = await poll('the tab Authenticate opens', 120_000, async () => opened[0]);
      const authUrl = new URL(await poll('the authorization URL', 60_000, async () => authUrls[0]));
      assert.equal(authUrl.searchParams.get('resource'), gateway.url, 'a token for the gateway, as resource');
      assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
      await tab.goto(authUrl.href, { waitUntil: 'load' });
      // oidc-provider's own pages: a login form, then consent.
      await tab.locator('input[name="login"]').fill('dana');
      await tab.locator('input[name="password"]').fill('any password');
      await tab.locator('button[type="submit"]').click();
      await tab
        .locator('button[type="submit"]')
        .filter({ hasText: /continue/i })
        .click({ timeout: 60_000 });
      await poll('the tab to come back to the workbench', 60_000, async () =>
        new URL(tab.url()).origin === new URL(v.url).origin ? true : undefined,
      );
      assert.match(await rowText(v, /Acme Tools.*team gateway · \d+ tools/), /\d+ tools/);
      await v.waitForLogFile('MCP Host', /acme-tools: signed in/, 60_000);
      assert.equal(opened.length, 1, 'one browser tab, one sign-in');
      await v.screenshot('signed-in');
    });

    await step('its servers are under it, as the gateway’s: those of dana’s profile only', async () => {
      await v.expandTreeItem(/Acme Tools/);
      assert.match(await rowText(v, /alpha.*\d+ tools/), /tools/);
      assert.match(await rowText(v, /beta.*\d+ tools/), /tools/);
      const rows = await v.treeItems();
      assert.ok(!rows.some((r) => /gamma/.test(r)), `the ops profile’s server is not shown: ${rows.join(' | ')}`);
      assert.ok(!rows.some((r) => /__/.test(r)), `no gateway-style names in the tree: ${rows.join(' | ')}`);
      await v.expandTreeItem(/beta.*\d+ tools/);
      await v.waitForTreeItem(/\becho\b/);
      await v.screenshot('tree');
    });

    await step('a tool called from the palette answers through the gateway', async () => {
      await runCommandThenPick(v, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
      // Named as the tree names it: the upstream's own name, the gateway and the upstream beside it.
      await quickInput(v).input.fill('echo');
      const row = quickInput(v).widget.locator('.monaco-list-row').filter({ hasText: 'acme-tools › beta' }).first();
      await row.waitFor({ state: 'visible', timeout: 60_000 });
      await row.click();
      // The fixture's echo is not marked read-only: the confirmation any such tool gets.
      assert.match(await v.clickDialogButton('Run Tool'), /beta__echo.*acme-tools/s);
      await answerInput(v, /beta__echo: text/, 'from the palette');
      const text = await previewText(v, 'echo: from the palette');
      assert.doesNotMatch(text, /failed/);
      await v.screenshot('call-result');
    });

    await step('the editor’s own gateway offers it to agents and chat like any server’s tool', async () => {
      const answer = await poll('the editor’s gateway to list the team gateway’s tools', 60_000, async () =>
        withGatewayClient(agentsHome, async (c) => {
          const names = (await c.listTools()).tools.map((x) => x.name);
          if (!names.includes('acme-tools__beta__echo')) return undefined;
          assert.ok(!names.some((n) => n.includes('gamma')), names.join());
          const r = await c.callTool({ name: 'acme-tools__beta__echo', arguments: { text: 'via an agent' } });
          return (r.content as { type: string; text?: string }[]).map((x) => x.text ?? '').join('');
        }).catch(() => undefined),
      );
      assert.equal(answer, 'echo: via an agent');
    });
  },
);
