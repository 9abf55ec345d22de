// The server author's workbench (issue 18) in real VS Code (code-server) against server-everything:
// the protocol trace switched on from the tree and exported as NDJSON from the trace editor, a root
// added and removed for one server (the server hears roots/list_changed and reads the new list),
// the call history exported as JSON, and a call / a server copied as command lines (checked by
// pasting into an editor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING, killMarked, poll, startVSCode, stepRunner, type VSCode } from './harness.js';
import {
  WAIT,
  commandThenPickItem,
  pickRow,
  previewText,
  quickInput,
  runCommandThenPick,
  waitForQuickInput,
} from './support/quick-input.js';
import { serverLog } from './support/views.js';

/**
 * The simple file dialog code-server shows (a quick input holding a path): types `path` and accepts
 * it, acting only while the dialog is not busy (it loads folders, and its start folder, late on a
 * busy machine and may then put that start folder back into the input: the path is typed again).
 * A folder (`folder`: typed with a trailing slash) is accepted with OK, where Enter would open the
 * highlighted row; a file name with Enter.
 */
async function answerFileDialog(vs: VSCode, path: string, folder = false): Promise<void> {
  const q = quickInput(vs);
  await q.input.waitFor({ state: 'visible', timeout: WAIT });
  const ok = q.widget.locator('.quick-input-action .monaco-button', { hasText: /^\s*OK\s*$/ }).first();
  const busy = q.widget.locator(
    '.quick-input-progress.active, .quick-input-progress .monaco-progress-container.active',
  );
  await poll(`the file dialog to accept ${path}`, WAIT, async () => {
    if (!(await q.widget.isVisible())) return true;
    if ((await busy.count()) > 0) return undefined;
    if ((await q.input.inputValue()) !== path) {
      await q.input.fill(path);
      return undefined;
    }
    if (folder) await ok.click({ timeout: 5000 });
    else await q.input.press('Enter');
    return undefined;
  });
}

/** Pastes the clipboard, once it matches `expect`, into a new untitled editor; returns what the editor then holds. */
async function pasteIntoEditor(vs: VSCode, expect: RegExp): Promise<string> {
  // The copy command returns before the extension host has written the clipboard: a paste made
  // then pastes the previous copy, once. So the clipboard is read until it holds the new text.
  await poll(`the clipboard to match ${String(expect)}`, WAIT, async () => {
    const clip = await vs.page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
    return expect.test(clip) ? true : undefined;
  });
  await vs.runCommand('File: New Untitled Text File');
  // A new untitled editor has the focus (its hint is switched off in the settings: a click could hit it).
  await vs.page
    .locator('.part.editor .editor-group-container.active .monaco-editor.focused')
    .first()
    .waitFor({ state: 'visible', timeout: WAIT });
  await vs.page.keyboard.press('Control+V');
  const text = await poll(`the pasted text to match ${String(expect)}`, WAIT, async () => {
    const t = await vs.activeEditorText();
    return expect.test(t) ? t : undefined;
  });
  // Close it without saving, so the next paste gets an editor of its own.
  await vs.runCommand('View: Revert and Close Editor');
  return text;
}

async function callTool(vs: VSCode, tool: string, args: string[] = []): Promise<void> {
  await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
  await pickRow(vs, tool);
  for (const a of args) {
    await waitForQuickInput(vs, new RegExp(`${tool}: `));
    await quickInput(vs).input.fill(a);
    await quickInput(vs).input.press('Enter');
  }
}

test(
  'the server author’s workbench: trace toggle and NDJSON export, roots, call history, copy as command lines',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-workbench-e2e-${randomBytes(4).toString('hex')}`;
    const vs = await startVSCode({
      workspace: 'workbench',
      name: 'workbench',
      settings: { 'mcpHost.logging.level': 'debug', 'workbench.editor.empty.hint': 'hidden' },
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_EVERYTHING: EVERYTHING, MCP_HOST_E2E_MARK: mark },
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });
    const origin = new URL(vs.url).origin;
    await vs.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });

    await step('the project server is approved and connects; it reads the one workspace root', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await vs.clickDialogButton('Allow');
      await vs.focusMcpHostView();
      await vs.waitForTreeItem(/everything.*\d+ tools/, WAIT);
      await serverLog(vs, 'everything', /Roots updated: 1 root\(s\) received from client/, WAIT);
    });

    await step(
      'Toggle Protocol Trace from the tree turns tracing on and opens the trace; a call shows in it',
      async () => {
        await vs.contextAction(/everything.*\d+ tools/, 'Toggle Protocol Trace');
        await poll('the trace editor of everything', WAIT, async () => {
          const text = await vs.activeEditorText();
          return /Protocol trace of everything/.test(text) && !/Tracing is off/.test(text) ? true : undefined;
        });
        await callTool(vs, 'echo', ['traced call']);
        await previewText(vs, /Echo: traced call/);
        await commandThenPickItem(vs, 'MCP Host: Show Protocol Trace', /everything/);
        const trace = await poll('the call in the trace', WAIT, async () => {
          const text = await vs.activeEditorText();
          return /←\s+response\s+#\d+\s+tools\/call\s+\d+ ms/.test(text) ? text : undefined;
        });
        assert.match(trace, /→\s+request\s+#\d+\s+tools\/call/);
        assert.match(trace, /"traced call"/);
      },
    );

    await step(
      'Export Protocol Trace as NDJSON from the trace editor’s title writes one JSON message per line',
      async () => {
        const target = join(vs.workspaceDir, 'everything.trace.ndjson');
        await vs.page
          .locator('.editor-actions .action-label[aria-label^="Export Protocol Trace as NDJSON"]')
          .first()
          .click();
        await answerFileDialog(vs, target);
        await vs.waitForNotification(/Exported \d+ messages to .*everything\.trace\.ndjson/);
        assert.ok(existsSync(target));
        const lines = readFileSync(target, 'utf8').trim().split('\n');
        const records = lines.map(
          (l) =>
            JSON.parse(l) as { direction?: string; method?: string; message?: { params?: { arguments?: unknown } } },
        );
        const call = records.find((r) => r.direction === 'out' && r.method === 'tools/call');
        assert.ok(call, `a tools/call request among ${lines.length} lines`);
        assert.deepEqual(call.message?.params?.arguments, { message: 'traced call' });
        assert.ok(
          records.some((r) => r.direction === 'in' && r.method === 'tools/call'),
          'its response, paired with the method',
        );
      },
    );

    await step(
      'Add Root for Server… offers a folder to everything: it hears roots/list_changed and lists two roots',
      async () => {
        const extra = join(vs.workspaceDir, 'extra-root');
        await vs.focusMcpHostView();
        await vs.contextAction(/everything.*\d+ tools/, 'Add Root for Server…');
        await answerFileDialog(vs, `${extra}/`, true);
        const said = await vs.waitForNotification(/everything now has \d+ roots/);
        assert.match(said, /now has 2 roots/);
        await serverLog(vs, 'everything', /Roots updated: 2 root\(s\) received from client/, WAIT);
        await callTool(vs, 'get-roots-list');
        const text = await previewText(vs, /Current MCP Roots \(2 total\)/);
        assert.match(text, /extra-root/);
      },
    );

    await step('Remove Root of Server… takes it away again: the server reads one root', async () => {
      await vs.focusMcpHostView();
      await vs.contextAction(/everything.*\d+ tools/, 'Remove Root of Server…');
      await waitForQuickInput(vs, /Remove roots of everything/);
      await pickRow(vs, 'extra-root', false);
      // A multi-select pick: the row's checkbox is ticked; OK sends it.
      await quickInput(vs).widget.locator('.quick-input-action .monaco-button', { hasText: 'OK' }).first().click();
      // A "1 root" update after the "2 roots" one: the server re-read the list.
      await serverLog(vs, 'everything', /Roots updated: 2 root\(s\)[\s\S]*Roots updated: 1 root\(s\)/, WAIT);
      await callTool(vs, 'get-roots-list');
      const text = await previewText(vs, /Current MCP Roots \(1 total\)/);
      assert.doesNotMatch(text, /extra-root/);
    });

    await step('Export Call History as JSON opens the calls made in this window', async () => {
      await vs.runCommand('MCP Host: Export Call History as JSON');
      const text = await poll('the call history document', WAIT, async () => {
        const t2 = await vs.activeEditorText();
        return /"tool": "echo"/.test(t2) ? t2 : undefined;
      });
      assert.match(text, /"server": "everything"/);
      assert.match(text, /"message": "traced call"/);
      assert.match(text, /"tool": "get-roots-list"/);
    });

    await step('Copy Call as mcp-host Command… copies a line that repeats the call', async () => {
      await runCommandThenPick(vs, 'MCP Host: Copy Call as mcp-host Command…', /Copy Call as mcp-host Command/);
      await pickRow(vs, 'everything › echo');
      const pasted = await pasteIntoEditor(vs, /mcp-host call/);
      assert.equal(pasted.trim(), `mcp-host call everything echo --args '{"message":"traced call"}'`);
    });

    await step(
      'Copy Server as claude mcp add Line (tree) copies the entry as written, variables unexpanded',
      async () => {
        await vs.focusMcpHostView();
        await vs.contextAction(/everything.*\d+ tools/, 'Copy Server as claude mcp add Line');
        const pasted = await pasteIntoEditor(vs, /claude mcp add/);
        assert.equal(
          pasted.trim(),
          `claude mcp add --transport stdio everything -- '\${MCP_HOST_E2E_NODE}' '\${MCP_HOST_E2E_EVERYTHING}' stdio '\${MCP_HOST_E2E_MARK}'`,
        );
      },
    );
  },
);
