// The smoke set on the lowest supported VS Code (1.100, `engines.vscode`; code-server 4.100.3 on
// this machine's Node 20): the rest of the suite runs on the current release. One session covers
// activation, the approval prompt, the tree, a palette call and the IDE server; the one-copy offer
// stays away there (VS Code 1.100 has no MCP provider API, so MCP Host runs every server itself).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERYTHING, killMarked, pidsWith, poll, startVSCode, stepRunner } from './harness.js';
import { connectAgent, readLocks } from '../integration/ide/agent.js';
import { answerInput, pickRow, previewText, quickInput, runCommandThenPick, WAIT } from './support/quick-input.js';

test(
  'VS Code 1.100 smoke: activation, approval, tree, a palette call, the IDE server',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-smoke-e2e-${randomBytes(4).toString('hex')}`;
    const claudeDir = mkdtempSync(join(tmpdir(), 'smoke-e2e-claude-'));
    const folder = mkdtempSync(join(tmpdir(), 'smoke-e2e-ws-'));
    t.after(() => {
      rmSync(claudeDir, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    });
    writeFileSync(
      join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', mark] } } }),
    );
    const vs = await startVSCode({
      // scripts/code-server.mjs's CODE_SERVER_OLDEST, written out: scripts/e2e.mjs installs the releases it finds here.
      codeServer: '4.100.3',
      workspace: folder,
      name: 'smoke-oldest',
      env: { CLAUDE_CONFIG_DIR: claudeDir },
      settings: { 'mcpHost.sharedServers': 'ask' },
      startTimeoutMs: 180_000,
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });

    await step('the extension activates on VS Code 1.100 and finds no provider API', async () => {
      const log = await vs.waitForLogFile('MCP Host', /activated in/, 240_000);
      await vs.waitForLogFile('MCP Host', /has no MCP server definition provider API/, WAIT);
      assert.match(log, /activated in/);
    });

    await step('the approval prompt: nothing runs before Allow, then the tree shows the server connected', async () => {
      assert.equal(pidsWith(mark).length, 0, 'nothing runs before the approval');
      const text = await vs.clickDialogButton('Allow');
      assert.match(text, /everything/);
      await vs.waitForTreeItem(/everything.*\d+ tools/, WAIT);
      assert.equal(pidsWith(mark).length, 1);
      // 1.100 has no MCP support of its own: no offer to leave the server to it.
      assert.deepEqual(
        (await vs.notifications()).filter((m) => /VS Code runs the servers/.test(m)),
        [],
      );
    });

    await step('Call Tool… from the palette: echo answers', async () => {
      await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
      await quickInput(vs).input.fill('echo');
      await pickRow(vs, 'echo');
      await answerInput(vs, /everything \/ echo: message/, 'hello from 1.100');
      const text = await previewText(vs, 'Echo: hello from 1.100');
      assert.doesNotMatch(text, /failed/);
    });

    await step('the IDE server writes its lock file and an agent connects with its token', async () => {
      const lock = await poll('the IDE lock file', WAIT, async () =>
        readLocks(join(claudeDir, 'ide')).find((l) => l.content.workspaceFolders.includes(vs.workspaceDir)),
      );
      assert.equal(lock.content.transport, 'ws');
      const agent = await connectAgent(lock);
      try {
        const { tools } = await agent.client.listTools();
        assert.ok(tools.some((x) => x.name === 'getDiagnostics'));
      } finally {
        await agent.close();
      }
    });
  },
);
