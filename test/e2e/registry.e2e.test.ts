// The registry in real VS Code (code-server): Browse Servers searches a local registry as you
// type, the details offer Install, the install asks where and for a secret token, the server
// connects with that token, the token is in no file (only SecretStorage), and Remove Server takes
// the entry out again, keeping the file's comment. Import Servers copies Claude Desktop's servers
// and reports a name clash; a tool call shows its result; a server added to .mcp.json on disk asks
// for approval. Screenshots of the registry browser, the tree, the tool call and the approval
// prompt go to media/screenshots/ for the README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { sampleServers, startFakeRegistry } from '../fixtures/registry/fake-registry.js';
import { EVERYTHING, killMarked, repoRoot, startVSCode, stepRunner } from './harness.js';
import { artifactsDir } from './support/prepare.js';
import { startTokenServer } from './support/token-server.js';
import { poll } from './support/workbench.js';
import { filesUnder } from './support/files.js';
import { rowText } from './support/views.js';

// README screenshots are refreshed on purpose (MCP_HOST_UPDATE_SCREENSHOTS=1 npm run test:e2e), not by
// every run: the random ports and timings in them would change committed files each time.
const SHOTS =
  process.env.MCP_HOST_UPDATE_SCREENSHOTS === '1'
    ? join(repoRoot, 'media', 'screenshots')
    : join(artifactsDir, 'screenshots');

test(
  'registry in code-server: browse, search, install with a secret, connected, secret in no file, remove',
  { timeout: 900_000 },
  async (t) => {
    const secret = `tok-${randomBytes(12).toString('hex')}`;
    // Servers of this run carry a marker argument, so none can outlive it.
    const mark = `mcp-e2e-registry-${randomBytes(6).toString('hex')}`;
    t.after(() => killMarked(mark));
    const secure = await startTokenServer(secret);
    t.after(() => secure.close());
    const reg = await startFakeRegistry({
      servers: [
        {
          server: {
            name: 'io.github.e2e/secure-echo',
            title: 'Secure Echo',
            description: 'Echo server behind an API token',
            version: '1.2.0',
            repository: { url: 'https://github.com/example/secure-echo', source: 'github' },
            remotes: [
              {
                type: 'streamable-http',
                url: secure.url,
                headers: [
                  {
                    name: 'Authorization',
                    value: 'Bearer {token}',
                    variables: { token: { description: 'API token', isRequired: true, isSecret: true } },
                  },
                ],
              },
            ],
          },
          _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } },
        },
        ...sampleServers(),
      ],
    });
    t.after(() => reg.close());

    // A disabled user server named "fs": the import below must report it as a name clash.
    const v = await startVSCode({
      workspace: 'registry',
      name: 'registry',
      settings: {
        'mcpHost.registry.url': reg.url,
        'mcpHost.servers': { fs: { command: 'node', args: ['fs.js'], disabled: true } },
      },
    });
    t.after(() => v.dispose());
    const step = stepRunner(t, v, () => {
      t.diagnostic(`host log:\n${v.readLogFile('MCP Host') ?? '(none)'}`);
      t.diagnostic(`registry requests: ${reg.requests.join(' ')}; token server: ${JSON.stringify(secure.requests)}`);
    });
    const widget = v.page.locator('.quick-input-widget');
    mkdirSync(SHOTS, { recursive: true });

    await step('Browse Servers lists the registry, and typing searches it', async () => {
      await v.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await v.focusMcpHostView();
      await v.runCommand('MCP Host: Browse Servers…');
      await poll('registry results in the quick pick', 60_000, async () =>
        (await v.quickPickItems()).some((l) => /Everything/.test(l)) ? true : undefined,
      );
      const all = await v.quickPickItems();
      assert.ok(all.some((l) => /Secure Echo/.test(l)) && all.some((l) => /Remote API/.test(l)), all.join(' | '));
      await widget.screenshot({ path: join(SHOTS, 'registry-browser.png') });
      const before = reg.requests.length;
      await widget.locator('input.input').fill('secure');
      await poll('the search to reach the registry', 30_000, async () =>
        reg.requests.slice(before).some((r) => r.includes('search=secure')) ? true : undefined,
      );
      const items = await poll('only the match to remain', 30_000, async () => {
        const shown = await v.quickPickItems();
        return shown.some((l) => /Secure Echo/.test(l)) && !shown.some((l) => /Everything|weather|Remote API/.test(l))
          ? shown
          : undefined;
      });
      t.diagnostic(`after the search: ${items.join(' | ')}`);
    });

    await step('Install from the details: workspace scope, name, the secret in a password box', async () => {
      await v.pickQuickItem(/Secure Echo/);
      await v.pickQuickItem(/Install: remote/);
      await v.pickQuickItem(/Workspace: \.vscode\/mcp\.json/);
      await v.submitQuickInput('secure');
      const input = widget.locator('input.input');
      await poll('the password box for the token', 30_000, async () =>
        (await input.getAttribute('type')) === 'password' ? true : undefined,
      );
      await v.submitQuickInput(secret);
      // The whole entry is shown before anything is written (the registry-entry security review).
      const shown = await v.clickDialogButton('Install');
      assert.match(shown, /Install "secure" from the MCP registry/);
      assert.ok(!shown.includes(secret), 'the confirmation shows the entry, never the secret');
      assert.match(await rowText(v, /secure.*1 tool/), /1 tool/);
      assert.ok(
        secure.requests.some((r) => r.authorized),
        'the server received the token',
      );
      assert.ok(
        secure.requests.every((r) => r.authorized),
        `no request went without it: ${JSON.stringify(secure.requests)}`,
      );
      // The tree with the server's tools showing, cropped to the rows (a small PNG for the README).
      await v.expandTreeItem(/secure.*1 tool/);
      await v.expandTreeItem(/^Tools/);
      await v.waitForTreeItem(/^\s*echo/, 30_000);
      const box = (await v.page.locator('.part.sidebar').boundingBox())!;
      await v.page.screenshot({
        path: join(SHOTS, 'tree.png'),
        clip: { x: box.x, y: box.y, width: box.width, height: 200 },
      });
    });

    await step('the entry refers to the secret; the token is in no file, log or setting', async () => {
      const text = readFileSync(join(v.workspaceDir, '.vscode', 'mcp.json'), 'utf8');
      assert.match(text, /\/\/ Team servers/);
      const doc = parse(text) as { servers: Record<string, { headers: Record<string, string> }>; inputs: unknown[] };
      assert.deepEqual(doc.servers.secure, {
        type: 'http',
        url: secure.url,
        headers: { Authorization: 'Bearer ${input:TOKEN}' },
        // Recorded so a managed "registryOnly" policy can check it against the registry at start.
        registry: { id: 'io.github.e2e/secure-echo', version: '1.2.0' },
      });
      assert.deepEqual(doc.inputs, [{ type: 'promptString', id: 'TOKEN', description: 'API token', password: true }]);
      const files = [
        ...filesUnder(join(v.userDataDir, 'logs')),
        ...filesUnder(join(v.userDataDir, 'User')).filter((f) => f.endsWith('.json')),
        ...filesUnder(v.workspaceDir),
        ...filesUnder(v.homeDir),
      ];
      assert.ok(files.some((f) => f.endsWith(join('User', 'settings.json'))));
      const hits = files.filter((f) => readFileSync(f, 'latin1').includes(secret));
      if (v.logs().includes(secret)) hits.push("code-server's output");
      assert.deepEqual(hits, []);
      // Where SecretStorage keeps it in code-server (for the record; not a file we write).
      const storage = filesUnder(v.userDataDir).filter((f) => readFileSync(f, 'latin1').includes(secret));
      t.diagnostic(
        `searched ${files.length} files; the secret store holds it in: ${storage.join(', ') || '(no plain-text file)'}`,
      );
    });

    await step('Browse Servers marks it installed; Remove Server takes it out and keeps the comment', async () => {
      await v.runCommand('MCP Host: Browse Servers…');
      await poll('the installed mark', 60_000, async () =>
        (await widget
          .locator('.monaco-list-row')
          .filter({ hasText: /installed as secure/ })
          .count()) > 0
          ? true
          : undefined,
      );
      await v.page.keyboard.press('Escape');
      await v.runCommand('MCP Host: Remove Server');
      await v.pickQuickItem(/^secure$/);
      const text = await v.clickDialogButton('Remove');
      assert.match(text, /Remove MCP server "secure"/);
      await poll('the row to go', 60_000, async () =>
        (await v.treeItems()).some((l) => /^secure\b/.test(l)) ? undefined : true,
      );
      const after = readFileSync(join(v.workspaceDir, '.vscode', 'mcp.json'), 'utf8');
      assert.match(after, /\/\/ Team servers/);
      assert.deepEqual((parse(after) as { servers: object }).servers, {});
    });

    await step(
      'Import Servers from Claude Desktop: the name clash is reported, the other server imported and started',
      async () => {
        const desktop = join(v.homeDir, '.config', 'Claude');
        mkdirSync(desktop, { recursive: true });
        writeFileSync(
          join(desktop, 'claude_desktop_config.json'),
          JSON.stringify({
            mcpServers: {
              fs: { command: 'node', args: ['other.js'] },
              ev: { command: 'node', args: [EVERYTHING, 'stdio', mark] },
            },
          }),
        );
        const settingsFile = join(v.userDataDir, 'User', 'settings.json');
        await v.runCommand('MCP Host: Import Servers…');
        await v.pickQuickItem(/^Claude Desktop$/);
        await v.pickQuickItem(/^User Settings$/);
        await poll('the servers to import', 30_000, async () =>
          (await v.quickPickItems()).some((l) => /^ev$/.test(l)) ? true : undefined,
        );
        await widget.locator('input.input').press('Enter');
        const message = await v.waitForNotification(/Imported 1 server from Claude Desktop/, 60_000);
        assert.match(message, /: ev\./);
        assert.match(message, /Name clash, kept the existing entry: fs\./);
        assert.match(await rowText(v, /^ev.*tools/), /tools/);
        const servers = (parse(readFileSync(settingsFile, 'utf8')) as Record<string, Record<string, unknown>>)[
          'mcpHost.servers'
        ]!;
        assert.deepEqual(servers.fs, { command: 'node', args: ['fs.js'], disabled: true });
        assert.deepEqual(servers.ev, { command: 'node', args: [EVERYTHING, 'stdio', mark] });
      },
    );

    await step('Call Tool on the imported server: the result document (screenshot)', async () => {
      await v.runCommand('MCP Host: Call Tool…');
      await widget.locator('input.input').fill('echo');
      await v.pickQuickItem(/^echo$/);
      await poll('the message input', 30_000, async () =>
        /message/.test(await widget.innerText().catch(() => '')) ? true : undefined,
      );
      await v.submitQuickInput('hello from the registry test');
      await poll('the result preview', 60_000, async () => {
        for (const frame of v.page.frames()) {
          const text = await frame
            .evaluate(() => (document.querySelector('.markdown-body') ? document.body.innerText : ''))
            .catch(() => '');
          if (text.includes('Echo: hello from the registry test')) return true;
        }
        return undefined;
      });
      const box = (await v.page.locator('.part.editor').boundingBox())!;
      await v.page.screenshot({
        path: join(SHOTS, 'tool-call.png'),
        clip: { x: box.x, y: box.y, width: Math.min(box.width, 760), height: 300 },
      });
    });

    await step(
      'Remove Server from the tree context menu takes the imported server out of the user settings',
      async () => {
        await v.contextAction(/^ev.*tools/, 'Remove Server');
        assert.match(await v.clickDialogButton('Remove'), /Remove MCP server "ev" from your user settings/);
        await poll('the ev row to go', 60_000, async () =>
          (await v.treeItems()).some((l) => /^ev\b/.test(l)) ? undefined : true,
        );
        const servers = (
          parse(readFileSync(join(v.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<
            string,
            Record<string, unknown>
          >
        )['mcpHost.servers']!;
        assert.deepEqual(Object.keys(servers), ['fs']);
      },
    );

    await step(
      "a server added to .mcp.json on disk asks for approval first (screenshot); Don't Allow holds it back",
      async () => {
        // Not started at all (Don't Allow), so the README shows the usual npx line without running it.
        writeFileSync(
          join(v.workspaceDir, '.mcp.json'),
          JSON.stringify(
            { mcpServers: { team: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } },
            null,
            2,
          ),
        );
        const dialog = v.page.locator('.monaco-dialog-box');
        await dialog.waitFor({ state: 'visible', timeout: 60_000 });
        await dialog.screenshot({ path: join(SHOTS, 'approval.png') });
        assert.match(await v.clickDialogButton("Don't Allow"), /Allow the MCP server "team"/);
        assert.match(await rowText(v, /^team/), /waiting for your approval/);
      },
    );
  },
);
