// Dev mode in real VS Code (code-server): editing a server's source (adding a tool) restarts only
// that server and the new tool appears in the tree with no user action; a server with
// `dev.debug` node starts under the debugger, VS Code attaches, and ending the session stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killMarked, pidsWith, poll, repoRoot, startVSCode, stepRunner } from './harness.js';
import { serverLog } from './support/views.js';
import { chooseLens } from './support/quick-input.js';
import { pickQuickItem } from './support/workbench.js';

test(
  'dev mode: edit a server and its new tool appears; a debug server is attached and stops with its session',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-dev-e2e-${randomBytes(4).toString('hex')}`;
    const vs = await startVSCode({
      workspace: 'dev',
      name: 'dev-mode',
      settings: {
        'mcpHost.dev.restartDelay': 300,
        'mcpHost.trace.servers': ['calc'],
        // VS Code 1.139 starts a `dev` server of .vscode/mcp.json itself at once (its own dev mode),
        // which would double the processes this test counts; here it is MCP Host's dev mode under test.
        'chat.mcp.access': 'none',
      },
      env: {
        MCP_HOST_E2E_NODE: process.execPath,
        MCP_HOST_E2E_SDK: join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server'),
        MCP_HOST_E2E_MARK: mark,
      },
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });

    await step('approve the workspace servers; calc connects with its one tool', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      const text = await vs.clickDialogButton('Allow');
      assert.match(text, /Allow 2 MCP servers/);
      await vs.focusMcpHostView();
      await vs.waitForTreeItem(/calc.*1 tool/, 120_000);
      await vs.expandTreeItem(/calc.*1 tool/);
      await vs.waitForTreeItem(/^\s*echo_back/);
      await serverLog(vs, 'calc', /dev: watching server\/\*\*\/\*\.mjs/, 60_000);
    });

    await step('adding a tool to the source restarts calc alone and the tree shows the tool', async () => {
      const debugPids = pidsWith(mark).length;
      assert.equal(debugPids, 2, 'both servers run');
      const file = join(vs.workspaceDir, 'server', 'calc.mjs');
      const source = readFileSync(file, 'utf8');
      // The debug session of the other server may have started meanwhile; the tree must be in view.
      await vs.focusMcpHostView();
      writeFileSync(
        file,
        source.replace(
          '// NEW TOOLS GO HERE',
          "server.registerTool('multiply', { description: 'Multiplies', annotations: { readOnlyHint: true } }, async () => text('6'));\n// NEW TOOLS GO HERE",
        ),
      );
      await vs.waitForTreeItem(/^\s*multiply/, 60_000);
      // The server's row says what the restart changed.
      await vs.waitForTreeItem(/calc.*2 tools · tool `multiply` added/, 30_000);
      const log = await serverLog(vs, 'calc', /dev: restarted: tool `multiply` added/, 60_000);
      assert.match(log, /dev: server\/calc\.mjs changed; restarting/);
      // Only calc restarted: debugme's log has no restart.
      const other = vs.readLogFile('MCP Host: debugme') ?? vs.readLogFile('MCP Host debugme') ?? '';
      assert.doesNotMatch(other, /dev: .*restarting/);
      await vs.screenshot('tool-added');
    });

    await step(
      'the protocol trace of a call from the tree shows initialize, tools/list and the call with its duration',
      async () => {
        await vs.clickTreeItem(/^\s*multiply/);
        // The call's result document opens when the call is done.
        await vs.page
          .locator('.tabs-container .tab')
          .filter({ hasText: /multiply/ })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        const filtered = async (method: string, want: RegExp): Promise<string> => {
          // The result's Markdown preview may take the focus as it loads, which closes a pick that
          // opened before it (seen at load 10): then the command is run again.
          await poll('the server pick of Filter Protocol Trace', 120_000, async () => {
            await vs.runCommand('MCP Host: Filter Protocol Trace…');
            return pickQuickItem(vs.page, 'calc', 10_000).then(
              () => true,
              () => undefined,
            );
          });
          await vs.submitQuickInput(method);
          await vs.pickQuickItem('Both directions');
          // The document follows the trace live.
          return poll(`the trace filtered by ${method} to match ${String(want)}`, 60_000, async () => {
            const text = await vs.activeEditorText();
            return text.includes(`method contains "${method}"`) && want.test(text) ? text : undefined;
          });
        };
        const calls = await filtered('tools/call', /←\s+response\s+#\d+\s+tools\/call\s+\d+ ms/);
        assert.match(calls, /→\s+request\s+#\d+\s+tools\/call/);
        assert.match(calls, /"name":"multiply"/);
        const start = await filtered('i', /tools\/list/);
        assert.match(start, /→\s+request\s+#\d+\s+initialize/);
        assert.match(start, /←\s+response\s+#\d+\s+initialize\s+\d+ ms/);
        assert.match(start, /→\s+request\s+#\d+\s+tools\/list/);
        await vs.screenshot('trace');
      },
    );

    await step(
      'server details show the protocol version and a ping; Send Request… sends tools/call from a JSON editor',
      async () => {
        await vs.runCommand('MCP Host: Show Server Details');
        await vs.pickQuickItem('calc');
        const details = await poll('the details of calc', 60_000, async () => {
          const text = await vs.activeEditorText();
          return /Protocol version:\*\* \d{4}-\d{2}-\d{2}/.test(text) && /Ping:\*\* [\d.]+ ms/.test(text)
            ? text
            : undefined;
        });
        assert.match(details, /\*\*Server:\*\* calc 1\.0\.0/);
        await vs.runCommand('MCP Host: Send Request…');
        await vs.pickQuickItem('calc');
        await vs.pickQuickItem('tools/call');
        const editor = vs.page.locator('.editor-instance .monaco-editor').first();
        const lens = (text: string | RegExp) =>
          editor.locator('.codelens-decoration a, .codelens-decoration span').filter({ hasText: text }).first();
        await lens('Send').waitFor({ state: 'visible', timeout: 60_000 });
        const template = await vs.activeEditorText();
        assert.match(template, /"\$schema": "file:\/\/.*tools_call\.schema\.json"/);
        assert.match(template, /"name": ""/);
        await editor.locator('.view-lines').click();
        await vs.page.keyboard.press('Control+A');
        await vs.page.keyboard.press('Delete');
        await vs.page.keyboard.type('{"name": "multiply"}');
        await chooseLens(vs, 'Send');
        const result = await poll('the result of the request', 60_000, async () => {
          const text = await vs.activeEditorText();
          return /tools\/call → calc answered in [\d.]+ ms/.test(text) ? text : undefined;
        });
        assert.match(result, /"text": "6"/);
        await vs.screenshot('send-request');
      },
    );

    await step('debugme runs under the Node debugger and VS Code attaches', async () => {
      const log = await serverLog(vs, 'debugme', /dev: node debugger attached on 127\.0\.0\.1:\d+/, 120_000);
      assert.match(log, /Debugger listening on ws:\/\/127\.0\.0\.1:\d+\//);
      await vs.page.locator('.debug-toolbar').waitFor({ state: 'visible', timeout: 60_000 });
      await vs.screenshot('debugger-attached');
    });

    await step('stopping the debug session stops the server', async () => {
      const before = pidsWith(mark).length;
      await vs.runCommand('Debug: Stop');
      await serverLog(vs, 'debugme', /the debug session ended; stopping the server/, 60_000);
      await poll('the debugged server process to exit', 60_000, async () =>
        pidsWith(mark).length === before - 1 ? true : undefined,
      );
      await vs.focusMcpHostView();
      await vs.waitForTreeItem(/debugme.*stopped/, 60_000);
    });

    await step('started again it is attached again; stopping the server ends its session', async () => {
      await vs.runCommand('MCP Host: Start Server');
      await vs.pickQuickItem('debugme');
      await serverLog(vs, 'debugme', /dev: node debugger attached[\s\S]*dev: node debugger attached/, 120_000);
      await vs.page.locator('.debug-toolbar').waitFor({ state: 'visible', timeout: 60_000 });
      await vs.runCommand('MCP Host: Stop Server');
      await vs.pickQuickItem('debugme');
      await vs.page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 60_000 });
    });
  },
);
