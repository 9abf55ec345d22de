// The IDE server in real VS Code (code-server): an agent client finds the lock file, connects with
// the token, and sees the built-in TypeScript diagnostics, opens files and gets a diff accepted.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fixturesDir, poll, startVSCode } from './harness.js';
import { openTerminal, runInTerminal, TERMINAL_SETTINGS } from './support/terminal.js';
import { connectAgent, jsonOf, openSocket, readLocks, texts, type Agent } from '../integration/ide/agent.js';
import type { IdeFileDiagnostics, IdeSelection } from '../../src/core/ide/editor-port.js';

const BROKEN_TS =
  "// A deliberate type error: TypeScript reports it at `count`.\nexport const count: number = 'three';\n";

test(
  'IDE server in real VS Code: lock file, token, diagnostics, openFile, openDiff accept/reject, setting',
  { timeout: 900_000 },
  async (t) => {
    const claudeDir = mkdtempSync(join(tmpdir(), 'ide-e2e-claude-'));
    t.after(() => rmSync(claudeDir, { recursive: true, force: true }));
    const lockDir = join(claudeDir, 'ide');
    // The type error is added to a copy of the fixture before VS Code starts (the file watcher in
    // this environment may miss files created later), so the repo's own type check stays clean.
    const copyDir = mkdtempSync(join(tmpdir(), 'ide-e2e-ws-'));
    t.after(() => rmSync(copyDir, { recursive: true, force: true }));
    const fixture = join(copyDir, 'ide');
    cpSync(join(fixturesDir, 'ide'), fixture, { recursive: true });
    writeFileSync(join(fixture, 'broken.ts'), BROKEN_TS);
    const vs = await startVSCode({
      workspace: fixture,
      name: 'ide',
      settings: TERMINAL_SETTINGS,
      env: { CLAUDE_CONFIG_DIR: claudeDir },
    });
    let agent: Agent | undefined;
    t.after(async () => {
      await agent?.close().catch(() => undefined);
      await vs.dispose();
    });
    const page = vs.page;
    const brokenPath = join(vs.workspaceDir, 'broken.ts');
    const greetPath = join(vs.workspaceDir, 'greet.ts');

    await t.test(
      'the extension writes a lock file for this workspace and the agent connects with its token',
      async () => {
        const lock = await poll('the IDE lock file', 120_000, async () =>
          readLocks(lockDir).find((l) => l.content.workspaceFolders.includes(vs.workspaceDir)),
        );
        assert.equal(lock.content.transport, 'ws');
        await assert.rejects(
          openSocket(lock.port, {}),
          (err: { status?: number }) => err.status === 401,
          'no token, no socket',
        );
        agent = await connectAgent(lock);
        const { tools } = await agent.client.listTools();
        assert.ok(tools.some((x) => x.name === 'openDiff') && tools.some((x) => x.name === 'getDiagnostics'));
        const folders = jsonOf<{ folders: { path: string }[] }>(await agent.call('getWorkspaceFolders'));
        assert.deepEqual(
          folders.folders.map((f) => f.path),
          [vs.workspaceDir],
        );
      },
    );

    await t.test('getDiagnostics returns the TypeScript error of the open file with its 0-based range', async () => {
      await vs.runCommand('View: Show Explorer');
      const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: /^broken\.ts$/ });
      await poll('broken.ts in the Explorer', 60_000, async () => ((await row.count()) > 0 ? true : undefined));
      await row.first().click();
      await page.locator('.part.editor .tab.active').filter({ hasText: 'broken.ts' }).waitFor({ state: 'visible' });
      const uri = pathToFileURL(brokenPath).href;
      // The TypeScript server starts lazily; on a loaded machine the first diagnostics take a while.
      const diags = await poll('TypeScript diagnostics for broken.ts', 240_000, async () => {
        const r = jsonOf<IdeFileDiagnostics[]>(await agent!.call('getDiagnostics', { uri }));
        return r[0]?.diagnostics.some((d) => d.source === 'ts') ? r : undefined;
      });
      assert.equal(diags.length, 1);
      assert.equal(diags[0]!.uri, uri);
      const err = diags[0]!.diagnostics.find((d) => d.code === 2322);
      assert.ok(err, `TS2322 expected, got ${JSON.stringify(diags)}`);
      assert.equal(err.severity, 'Error');
      assert.match(err.message, /Type 'string' is not assignable to type 'number'/);
      assert.deepEqual(err.range, { start: { line: 1, character: 13 }, end: { line: 1, character: 18 } });
      const all = jsonOf<IdeFileDiagnostics[]>(await agent!.call('getDiagnostics'));
      assert.ok(
        all.some((f) => f.uri === uri && f.diagnostics.some((d) => d.code === 2322)),
        'also listed without a uri',
      );
    });

    await t.test('openFile opens a file in a visible tab and selects the requested text', async () => {
      const r = await agent!.call('openFile', { filePath: greetPath, startText: 'function greet', endText: '{' });
      assert.deepEqual(texts(r), [`Opened file: ${greetPath}`]);
      await page.locator('.part.editor .tab.active').filter({ hasText: 'greet.ts' }).waitFor({ state: 'visible' });
      const sel = await poll('the selection to reach the agent', 30_000, async () => {
        const s = jsonOf<IdeSelection & { success: boolean }>(await agent!.call('getCurrentSelection'));
        return s.success && s.filePath === greetPath ? s : undefined;
      });
      assert.equal(sel.text, 'function greet(name: string): string {');
      assert.deepEqual(sel.selection.start, { line: 0, character: 7 });
      const editors = jsonOf<{ tabs: { fileName: string; isActive: boolean }[] }>(await agent!.call('getOpenEditors'));
      assert.ok(
        editors.tabs.some((e) => e.fileName === greetPath && e.isActive),
        JSON.stringify(editors),
      );
    });

    await t.test(
      'selection_changed follows the editor; Send Selection to Agent sends at_mentioned; the status bar counts agents',
      async () => {
        const whole = readFileSync(greetPath, 'utf8');
        await page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().click();
        await page.keyboard.press('Control+A');
        const changed = await poll('selection_changed with the whole file', 30_000, async () =>
          agent!.notifications.find(
            (n) => n.method === 'selection_changed' && n.params.text === whole && n.params.filePath === greetPath,
          ),
        );
        assert.deepEqual(changed.params.selection, {
          start: { line: 0, character: 0 },
          end: { line: 3, character: 0 },
          isEmpty: false,
        });
        const mention = agent!.nextNotification('at_mentioned', 60_000);
        // The keybinding, in the editor: the palette route would press Escape first, which clears the selection.
        await page.keyboard.press('Control+Alt+K');
        assert.deepEqual(await mention, { filePath: greetPath, lineStart: 0, lineEnd: 2 });
        const entry = await poll('the IDE status bar entry', 30_000, async () =>
          (await vs.statusBar()).find((e) => /IDE server: 1 agent connected/.test(e.label)),
        );
        assert.match(entry.text, /1/);
      },
    );

    await t.test(
      'openDiff + Accept in the editor title returns FILE_SAVED with the user-edited proposal and leaves the file to the agent',
      async () => {
        const proposal = 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
        const pending = agent!.call('openDiff', {
          old_file_path: greetPath,
          new_file_path: greetPath,
          new_file_contents: proposal,
          tab_name: 'greet.ts (proposed)',
        });
        await page
          .locator('.part.editor .tab.active')
          .filter({ hasText: 'greet.ts (proposed)' })
          .waitFor({ state: 'visible' });
        const accept = page.locator(
          '.part.editor .editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Proposed Change"]',
        );
        await accept.waitFor({ state: 'visible' });
        await vs.screenshot('diff');
        const original = readFileSync(greetPath, 'utf8');
        // The user edits the proposal before accepting: the agent must get the edited text back.
        await page.locator('.part.editor .editor-group-container.active .editor.modified .view-lines').first().click();
        await page.keyboard.press('Control+End');
        await page.keyboard.type('// reviewed\n');
        await accept.click();
        const r = await pending;
        assert.deepEqual(texts(r), ['FILE_SAVED', `${proposal}// reviewed\n`]);
        // Claude Code writes the file itself and takes an earlier write by the editor as a conflict.
        assert.equal(readFileSync(greetPath, 'utf8'), original, 'the editor must not write the file on Accept');
        await poll('the diff tab to close', 30_000, async () =>
          (await page.locator('.part.editor .tab').filter({ hasText: 'greet.ts (proposed)' }).count()) === 0
            ? true
            : undefined,
        );
      },
    );

    await t.test('openDiff + Reject from the palette leaves the file alone and returns DIFF_REJECTED', async () => {
      const before = readFileSync(greetPath, 'utf8');
      const pending = agent!.call('openDiff', {
        old_file_path: greetPath,
        new_file_path: greetPath,
        new_file_contents: 'export {};\n',
        tab_name: 'greet.ts (second)',
      });
      await page
        .locator('.part.editor .tab.active')
        .filter({ hasText: 'greet.ts (second)' })
        .waitFor({ state: 'visible' });
      await vs.runCommand('MCP Host: Reject Proposed Change');
      assert.deepEqual(texts(await pending), ['DIFF_REJECTED', 'greet.ts (second)']);
      assert.equal(readFileSync(greetPath, 'utf8'), before);
    });

    await t.test(
      'turning mcpHost.ideServer.enabled off stops the server and removes the lock file; on starts a new one',
      async () => {
        const old = readLocks(lockDir).find((l) => l.content.workspaceFolders.includes(vs.workspaceDir))!;
        const closed = new Promise<void>((resolve) => agent!.ws.once('close', () => resolve()));
        // Through the Settings editor, as a user would (code-server does not pick up edits of settings.json on disk reliably).
        await vs.runCommand('Preferences: Open User Settings');
        await page
          .locator('.settings-editor .suggest-input-container .monaco-editor')
          .first()
          .waitFor({ state: 'visible' });
        await poll('the settings search box to take focus', 30_000, async () =>
          (await page.evaluate(
            () => document.activeElement?.closest('.settings-editor .suggest-input-container') !== null,
          ))
            ? true
            : undefined,
        );
        await page.keyboard.type('mcpHost.ideServer.enabled');
        // While the search is typed the list filters progressively; pick our setting by its title, not the first checkbox.
        const box = page
          .locator('.settings-editor .setting-item-bool')
          .filter({ hasText: 'Ide Server: Enabled' })
          .locator('.setting-value-checkbox')
          .first();
        await box.waitFor({ state: 'visible' });
        assert.equal(await box.getAttribute('aria-checked'), 'true');
        await box.click();
        await poll('the lock file to go away', 60_000, async () =>
          readLocks(lockDir).some((l) => l.port === old.port) ? undefined : true,
        );
        await closed;
        await agent!.close();
        agent = undefined;
        await box.click();
        const fresh = await poll('a new lock file', 60_000, async () =>
          readLocks(lockDir).find((l) => l.content.workspaceFolders.includes(vs.workspaceDir)),
        );
        assert.notEqual(fresh.content.authToken, old.content.authToken, 'a restarted server has a new token');
        agent = await connectAgent(fresh);
        assert.equal(jsonOf(await agent.call('getWorkspaceFolders')).success, true);
      },
    );

    await t.test('an integrated terminal gets CLAUDE_CODE_SSE_PORT and ENABLE_IDE_INTEGRATION', async () => {
      const lock = readLocks(lockDir).find((l) => l.content.workspaceFolders.includes(vs.workspaceDir))!;
      await openTerminal(vs, 120_000);
      const out = join(vs.workspaceDir, 'ide-env.txt');
      await runInTerminal(vs, `echo "$CLAUDE_CODE_SSE_PORT $ENABLE_IDE_INTEGRATION" > ${out}`, 60_000);
      const content = await poll('the terminal to report its environment', 90_000, async () =>
        existsSync(out) ? readFileSync(out, 'utf8').trim() || undefined : undefined,
      );
      assert.equal(content, `${lock.port} true`);
    });
  },
);
