// The editor shell in real VS Code (code-server): approval prompt, live server tree, a broken entry
// next to a working server, status bar, restart, a server added on disk, reload without a second
// prompt and without leftover processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING, killMarked, pidsWith, startVSCode, stepRunner, type VSCode } from './harness.js';
import { poll } from './support/workbench.js';
import { liveRowText, rowText, serverLog, watchFor } from './support/views.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for VS Code's modal dialog, returns its text and presses the button labelled exactly `button`. */
async function answerDialog(vs: VSCode, match: RegExp, button: string): Promise<string> {
  const dialog = vs.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 120_000 });
  const text = await dialog.innerText();
  assert.match(text, match);
  await dialog
    .locator('.dialog-buttons a.monaco-button, .dialog-buttons .monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${button}\\s*$`) })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

test(
  'editor shell: approve, live tree, broken entry, status bar, restart, add on disk, reload',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-tree-e2e-${randomBytes(4).toString('hex')}`;
    const vs = await startVSCode({
      workspace: 'tree',
      name: 'editor-tree',
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_EVERYTHING: EVERYTHING, MCP_HOST_E2E_MARK: mark },
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      // Whatever happened, no server of this run may outlive VS Code.
      killMarked(mark);
    });

    await step('one modal prompt lists what the project servers would run; nothing runs before Allow', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      const dialog = vs.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ state: 'visible', timeout: 120_000 });
      assert.deepEqual(pidsWith(mark), [], 'no server process before approval');
      const text = await answerDialog(vs, /Allow 2 MCP servers defined by this workspace to run\?/, 'Allow');
      assert.match(text, /everything: .*server-everything\/dist\/index\.js stdio/);
      assert.match(text, /missing: mcp-host-e2e-no-such-command --serve/);
      const log = await vs.waitForLogFile('MCP Host', /all servers settled \d+ ms after activation/, 120_000);
      t.diagnostic(
        `host log: ${log
          .split('\n')
          .filter((l) => /activated in|settled|configuration read/.test(l))
          .map((l) => l.replace(/^\S+ \S+ /, ''))
          .join(' | ')}`,
      );
    });

    await step(
      'the tree shows the server connected with its tools; the broken entry and the missing command show their errors',
      async () => {
        await vs.focusMcpHostView();
        const everything = await rowText(vs, /everything.*\d+ tools/);
        assert.match(everything, /\d+ tools/);
        const missing = await rowText(vs, /missing.*failed/);
        assert.match(missing, /command not found/i);
        const broken = await rowText(vs, /broken.*config error/);
        assert.match(broken, /command/);
        // The Tools folder of a connected server is expanded once the server row is.
        await vs.expandTreeItem(/everything.*\d+ tools/);
        await vs.waitForTreeItem(/^\s*echo/);
        await vs.waitForTreeItem(/get-sum|add/);
        await vs.screenshot('tree-connected');
        const log = await vs.waitForLogFile('MCP Host', /server\(s\) settled in \d+ ms/, 60_000);
        t.diagnostic(
          `after approval: ${log
            .split('\n')
            .filter((l) => /server\(s\) settled in/.test(l))
            .map((l) => l.replace(/^\S+ \S+ /, ''))
            .join(' | ')}`,
        );
        // Still connected while the others are broken.
        assert.match(await rowText(vs, /everything/), /\d+ tools/);
      },
    );

    await step('the status bar counts connected servers and warns about the failure', async () => {
      const entry = await poll('the MCP Host status bar item', 60_000, async () =>
        (await vs.statusBar()).find((e) => /MCP Host/.test(e.label) && /1\/2/.test(e.text)),
      );
      assert.match(entry.label, /1\/2 servers connected, \d+ problems/);
      const cls = (await vs.page.locator(`[id="${entry.id}"]`).getAttribute('class')) ?? '';
      assert.match(cls, /warning-kind/, `status bar item should have the warning look, classes: ${cls}`);
      const notes = await vs.waitForNotification(/"missing" could not start/, 60_000);
      assert.match(notes, /command not found/i);
    });

    await step('Restart Server from the context menu restarts only that server', async () => {
      const before = pidsWith(mark);
      assert.equal(before.length > 0, true, 'the server runs');
      await vs.contextAction(/everything.*\d+ tools/, 'Restart Server');
      await poll('the old server process to exit', 60_000, async () =>
        before.every((p) => !alive(p)) ? true : undefined,
      );
      await poll('a new server process', 60_000, async () =>
        pidsWith(mark).some((p) => !before.includes(p)) ? true : undefined,
      );
      assert.match(await rowText(vs, /everything.*\d+ tools/), /\d+ tools/);
      const log = await serverLog(vs, 'everything', /connected to[\s\S]*connected to/, 60_000);
      assert.ok(log.split('\n').filter((l) => /connected to /.test(l)).length >= 2, log);
    });

    await step('a server added to .mcp.json on disk appears without a reload, after its own approval', async () => {
      const file = join(vs.workspaceDir, '.mcp.json');
      const text = readFileSync(file, 'utf8');
      const added = text.replace(
        '"missing": {',
        `"second": {\n      "command": "\${MCP_HOST_E2E_NODE}",\n      "args": ["\${MCP_HOST_E2E_EVERYTHING}", "stdio", "\${MCP_HOST_E2E_MARK}", "second"]\n    },\n    "missing": {`,
      );
      assert.notEqual(added, text);
      writeFileSync(file, added);
      await answerDialog(vs, /Allow the MCP server "second" defined by this workspace to run\?/, 'Allow');
      assert.match(await rowText(vs, /second.*\d+ tools/), /\d+ tools/);
      assert.match(await rowText(vs, /everything.*\d+ tools/), /\d+ tools/, 'the existing server was left alone');
      await vs.screenshot('tree-added');
    });

    await step(
      'Add Server… writes the entry to .mcp.json (other entries kept) and starts it without a prompt',
      async () => {
        const title = vs.page.locator('.quick-input-widget .quick-input-title');
        const waitTitle = (re: RegExp): Promise<void> =>
          title.filter({ hasText: re }).first().waitFor({ state: 'visible' });
        await vs.runCommand('MCP Host: Add Server…');
        await waitTitle(/Add MCP Server \(1\/3\)/);
        await vs.pickQuickItem(/Command \(stdio\)/);
        await waitTitle(/Add MCP Server \(2\/3\)/);
        await vs.submitQuickInput(`${process.execPath} "${EVERYTHING}" stdio ${mark} added`);
        await waitTitle(/Add MCP Server \(3\/3\)/);
        await vs.submitQuickInput('added');
        await waitTitle(/Save "added" where\?/);
        const prompts = watchFor(vs.page.locator('.monaco-dialog-box'));
        await vs.pickQuickItem(/Project: \.mcp\.json/);
        assert.match(await liveRowText(vs, 'added', /\d+ tools/), /\d+ tools/);
        assert.equal(await prompts.stop(), undefined, 'no approval prompt for a server the user just added');
        const written = JSON.parse(readFileSync(join(vs.workspaceDir, '.mcp.json'), 'utf8')) as {
          mcpServers: Record<string, { command?: unknown; args?: unknown }>;
        };
        assert.deepEqual(written.mcpServers.added, {
          type: 'stdio',
          command: process.execPath,
          args: [EVERYTHING, 'stdio', mark, 'added'],
        });
        assert.ok(
          written.mcpServers.everything && written.mcpServers.second && written.mcpServers.broken,
          'other entries kept',
        );
      },
    );

    await step('reload: deactivate leaves no server process; approvals are remembered (no prompt)', async () => {
      const before = pidsWith(mark);
      assert.ok(before.length >= 3, `three servers run: ${before.join(',')}`);
      await vs.reload();
      // From the new window's first paint until both servers are connected and listed (not the
      // last run's cached lists): a prompt at any point in between would fail the step.
      const prompts = watchFor(vs.page.locator('.monaco-dialog-box'));
      await vs.focusMcpHostView();
      await poll('every old server process to exit', 60_000, async () =>
        before.every((p) => !alive(p)) ? true : undefined,
      );
      assert.match(await liveRowText(vs, 'second', /\d+ tools/), /\d+ tools/);
      assert.match(await liveRowText(vs, 'everything', /\d+ tools/), /\d+ tools/);
      assert.equal(await prompts.stop(), undefined, 'no approval prompt after reload');
    });
  },
);

test(
  'untrusted workspace: its servers do not start and the view says why; trusting it starts them after approval',
  { timeout: 600_000 },
  async (t) => {
    const mark = `mcp-host-tree-e2e-${randomBytes(4).toString('hex')}`;
    const vs = await startVSCode({
      workspace: 'tree',
      name: 'editor-tree-untrusted',
      trusted: false,
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_EVERYTHING: EVERYTHING, MCP_HOST_E2E_MARK: mark },
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });

    await vs.waitForLogFile('MCP Host', /configuration read/, 180_000);
    assert.match(await rowText(vs, /everything/), /workspace not trusted/);
    assert.match(await rowText(vs, /missing/), /workspace not trusted/);
    const message = vs.serversView().locator('.message, .tree-explorer-viewlet-tree-view-message, .view-message');
    await poll('the view message', 30_000, async () =>
      (await message.allInnerTexts()).join(' ').includes('not trusted') ? true : undefined,
    );
    assert.equal(
      await vs.page.locator('.monaco-dialog-box').isVisible(),
      false,
      'no approval prompt in Restricted Mode',
    );
    assert.deepEqual(pidsWith(mark), [], 'nothing runs in Restricted Mode');
    await vs.screenshot('untrusted');

    // Trusting the workspace (the Workspace Trust editor's Trust button) brings the approval prompt.
    await vs.runCommand('Workspaces: Manage Workspace Trust');
    const trust = vs.page
      .locator('.workspace-trust-editor .monaco-button')
      .filter({ hasText: /^\s*Trust( Folder)?\s*$/ })
      .first();
    await trust.click();
    await answerDialog(vs, /Allow 2 MCP servers defined by this workspace to run\?/, 'Allow');
    assert.match(await rowText(vs, /everything.*\d+ tools/), /\d+ tools/);
  },
);
