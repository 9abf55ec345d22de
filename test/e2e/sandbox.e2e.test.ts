// The sandbox in real VS Code (code-server): a sandboxed server's row has the shield and says what
// it blocked, the refused connection is in its log, "Allow in Sandbox…" writes the domain into its
// entry (comments kept), and the server, restarted with it, reaches what it could not before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { poll, repoRoot, startVSCode, stepRunner } from './harness.js';
import { rowText, serverLog } from './support/views.js';
import { runCommandThenPick } from './support/quick-input.js';

test(
  'sandbox: shield, a blocked connection in the log, Allow in Sandbox, and the server reaching it after',
  { timeout: 900_000 },
  async (t) => {
    const http = createServer((_req, res) => res.end('loopback answered'));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    const vs = await startVSCode({
      workspace: 'sandbox',
      name: 'sandbox',
      env: {
        MCP_HOST_E2E_NODE: process.execPath,
        MCP_HOST_E2E_PROBE: join(repoRoot, 'test', 'fixtures', 'servers', 'sandbox-probe.mjs'),
        MCP_HOST_E2E_FETCH: `http://127.0.0.1:${port}/`,
      },
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      http.close();
    });

    await step('approve the workspace server; its row has the shield and counts the blocked connection', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await vs.clickDialogButton('Allow');
      await vs.focusMcpHostView();
      // The blocked connection can be counted while the server is still connecting; the shield
      // replaces the state icon once it is connected.
      await vs.waitForTreeItem(/probe.*sandboxed, 1 blocked/, 120_000);
      await poll('the shield icon on the connected row', 60_000, async () => {
        const row = await vs.waitForTreeItem(/probe.*sandboxed, 1 blocked/, 10_000);
        return (await row.locator('.codicon-shield').count()) === 1 ? true : undefined;
      });
      await vs.screenshot('sandboxed-row');
    });

    await step('the server log has the refused connection and the rules it runs under', async () => {
      const log = await serverLog(
        vs,
        'probe',
        new RegExp(`\\[sandbox\\] blocked a network connection to 127\\.0\\.0\\.1:${port}`),
        60_000,
      );
      assert.match(log, /Sandboxed; Writes: .*; Network: registry\.npmjs\.org/);
      assert.doesNotMatch(log, /fetched ok/);
    });

    await step('Allow in Sandbox… writes 127.0.0.1 into the entry, keeping the comment', async () => {
      await runCommandThenPick(vs, 'MCP Host: Allow in Sandbox…', /Allow in Sandbox/);
      await vs.pickQuickItem(/^probe/);
      await vs.pickQuickItem(/Allow network access to 127\.0\.0\.1/);
      const file = join(vs.workspaceDir, '.vscode', 'mcp.json');
      const text = await poll('the entry to be written', 30_000, async () => {
        const now = readFileSync(file, 'utf8');
        return now.includes('allowedDomains') ? now : undefined;
      });
      assert.match(text, /\/\/ "probe" runs in the sandbox/);
      const doc = parse(text) as { servers: { probe: { sandbox: unknown } } };
      assert.deepEqual(doc.servers.probe.sandbox, { network: { allowedDomains: ['127.0.0.1'] } });
    });

    await step('restarted with the rule, the server reaches the loopback server', async () => {
      await serverLog(vs, 'probe', /sandbox-probe: fetched ok: loopback answered/, 120_000);
      assert.match(await rowText(vs, /probe.*sandboxed/), /probe/);
    });
  },
);
