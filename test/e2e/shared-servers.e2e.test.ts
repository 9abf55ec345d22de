// One copy of each server in a VS Code that runs the workspace's servers itself (1.139 reads
// .vscode/mcp.json and the root .mcp.json). MCP Host asks once who should run them; the user leaves
// them to VS Code; the answer lands in .vscode/settings.json and MCP Host stops its copies. Then
// VS Code's own entries are started the way a user does without a model ("MCP: List Servers" →
// Start Server; chat's autostart needs a language model, which this machine has none of), and
// each server runs exactly once, VS Code discovers each server's tools once, and the gateway
// offers chat none of them a second time. The servers stay in MCP Host's tree as "run by VS Code";
// "Take Back from VS Code" on one stops VS Code's copy and runs it in MCP Host (one process, through
// a window reload too), "Leave to VS Code" gives it back. The offer, its toast cleared before an
// answer, comes back from the palette.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { EVERYTHING, killMarked, pidsWith, poll, startVSCode, stepRunner, type VSCode } from './harness.js';
import { clickNotificationButton, dialog } from './support/workbench.js';
import { withGatewayClient } from './support/gateway-client.js';

async function quickPickLabels(page: Page): Promise<string[]> {
  return page
    .locator('.quick-input-widget .monaco-list-row')
    .evaluateAll((rows) => rows.map((r) => (r.querySelector('.label-name')?.textContent ?? '').trim()));
}

/** "MCP: List Servers" → `label` → Start Server; answers VS Code's own trust question if it asks. */
async function startInVSCode(vs: VSCode, label: string): Promise<void> {
  await poll(`"MCP: List Servers" to list ${label}`, 120_000, async () => {
    await vs.runCommand('MCP: List Servers');
    const rows = await poll('the server list', 15_000, async () => {
      const r = await quickPickLabels(vs.page);
      return r.length > 0 ? r : undefined;
    }).catch((): string[] => []);
    if (rows.includes(label)) return true;
    await vs.page.keyboard.press('Escape');
    return undefined;
  });
  await vs.pickQuickItem(label);
  await vs.pickQuickItem(/^\s*(Start Server|Restart Server)\s*$/);
  const started = await poll(`VS Code to start ${label} or ask to trust it`, 120_000, async () => {
    if (await dialog(vs.page).isVisible()) return 'asked';
    return /Discovered \d+ tools/.test(await vs.outputChannel(`MCP: ${label}`).catch(() => '')) ? 'started' : undefined;
  });
  if (started === 'asked') {
    const buttons = await dialog(vs.page).locator('.monaco-button').allInnerTexts();
    const trust = buttons.find((b) => /^\s*(Trust|Allow|Yes)/i.test(b));
    assert.ok(trust, `VS Code's trust question has no trust button: ${JSON.stringify(buttons)}`);
    await vs.clickDialogButton(trust.trim());
  }
}

test(
  'one copy of each server: left to VS Code, each runs once and its tools reach chat once',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-shared-e2e-${randomBytes(4).toString('hex')}`;
    const home = mkdtempSync(join(tmpdir(), 'shared-e2e-home-'));
    const folder = mkdtempSync(join(tmpdir(), 'shared-e2e-ws-'));
    t.after(() => {
      rmSync(home, { recursive: true, force: true });
      rmSync(folder, { recursive: true, force: true });
    });
    const server = (name: string): { command: string; args: string[] } => ({
      command: process.execPath,
      args: [EVERYTHING, 'stdio', `${mark}-${name}`],
    });
    mkdirSync(join(folder, '.vscode'));
    writeFileSync(
      join(folder, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { alpha: server('alpha') } }, null, 2),
    );
    writeFileSync(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { beta: server('beta') } }, null, 2));
    writeFileSync(join(folder, '.vscode', 'settings.json'), '{\n  // kept: a comment of the user\n}\n');

    const vs = await startVSCode({
      workspace: folder,
      name: 'shared-servers',
      env: { MCP_HOST_HOME: home },
      settings: { 'mcpHost.sharedServers': 'ask' },
      startTimeoutMs: 180_000,
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });
    let tools = 0;

    await step('MCP Host runs both after approval and asks once who should run them', async () => {
      await vs.clickDialogButton('Allow');
      const row = await vs.waitForTreeItem(/alpha.*\d+ tools/, 120_000);
      tools = Number(/(\d+) tools/.exec((await row.getAttribute('aria-label')) ?? '')?.[1]);
      assert.ok(tools > 5, `alpha lists ${tools} tools`);
      await vs.waitForTreeItem(/beta.*\d+ tools/, 120_000);
      await vs.waitForNotification(/VS Code runs the servers of \.vscode\/mcp\.json and \.mcp\.json itself/, 120_000);
    });

    await step('the offer, its toast cleared unanswered, comes back from the palette', async () => {
      await vs.runCommand('Notifications: Clear All Notifications');
      await poll('the offer’s toast to go', 30_000, async () =>
        (await vs.notifications()).some((m) => /VS Code runs the servers of/.test(m)) ? undefined : true,
      );
      await vs.runCommand('MCP Host: Choose Who Runs the Servers VS Code Also Runs…');
      await vs.waitForNotification(
        /VS Code runs the servers of \.vscode\/mcp\.json and \.mcp\.json itself \(alpha, beta\)/,
        60_000,
      );
    });

    await step('"Leave Them to VS Code": the workspace setting is written, MCP Host stops its copies', async () => {
      await clickNotificationButton(vs.page, /VS Code runs the servers of/, 'Leave Them to VS Code', 60_000);
      await vs.waitForNotification(/MCP Host leaves alpha, beta to VS Code/, 60_000);
      const settings = readFileSync(join(vs.workspaceDir, '.vscode', 'settings.json'), 'utf8');
      assert.match(settings, /"mcpHost\.sharedServers": "vscode"/);
      assert.match(settings, /\/\/ kept: a comment of the user/);
      await vs.waitForTreeItem(/alpha.*run by VS Code/, 60_000);
      await vs.waitForTreeItem(/beta.*run by VS Code/, 60_000);
      await poll('MCP Host’s copies to exit', 60_000, async () => (pidsWith(mark).length === 0 ? true : undefined));
    });

    await step('VS Code starts its own entries: one process of each server', async () => {
      await startInVSCode(vs, 'alpha');
      await startInVSCode(vs, 'beta');
      for (const name of ['alpha', 'beta']) {
        const output = await vs.waitForOutput(`MCP: ${name}`, /Discovered \d+ tools/, 120_000);
        assert.equal(Number(/Discovered (\d+) tools/.exec(output)?.[1]), tools, output);
      }
      await vs.page.keyboard.press('Escape');
      assert.equal(pidsWith(`${mark}-alpha`).length, 1, 'one process of alpha');
      assert.equal(pidsWith(`${mark}-beta`).length, 1, 'one process of beta');
    });

    await step('the gateway offers chat none of their tools a second time', async () => {
      const names = await withGatewayClient(home, async (c) => (await c.listTools()).tools.map((x) => x.name));
      assert.deepEqual(
        names.filter((n) => /^(alpha|beta)__/.test(n)),
        [],
      );
      assert.equal(pidsWith(mark).length, 2, 'still one process of each');
    });

    const perServer = (): unknown =>
      (
        JSON.parse(
          readFileSync(join(vs.workspaceDir, '.vscode', 'settings.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
        ) as Record<string, unknown>
      )['mcpHost.sharedServersPerServer'];
    const oneAlpha = async (what: string): Promise<void> => {
      // Settles on one: VS Code's copy exits while MCP Host's starts; two for good would fail here.
      await poll(`${what}: one process of alpha`, 60_000, async () =>
        pidsWith(`${mark}-alpha`).length === 1 ? true : undefined,
      );
    };

    await step(
      '"Take Back from VS Code" on alpha: VS Code’s copy stops, MCP Host connects it, one process',
      async () => {
        await vs.inlineAction(/alpha.*run by VS Code/, 'Take Back from VS Code');
        await vs.waitForNotification(/MCP Host runs alpha now and stopped VS Code's own copy/, 60_000);
        const row = await vs.waitForTreeItem(/alpha.*\d+ tools/, 120_000);
        assert.doesNotMatch((await row.getAttribute('aria-label')) ?? '', /run by VS Code/);
        await vs.waitForTreeItem(/beta.*run by VS Code/, 10_000);
        assert.deepEqual(perServer(), { alpha: 'mcpHost' });
        await oneAlpha('after taking it back');
        const names = await withGatewayClient(home, async (c) => (await c.listTools()).tools.map((x) => x.name));
        assert.ok(
          names.some((n) => n.startsWith('alpha__')),
          `the gateway offers alpha's tools: ${names.join(', ')}`,
        );
        assert.deepEqual(
          names.filter((n) => n.startsWith('beta__')),
          [],
        );
      },
    );

    await step('after a window reload alpha is still MCP Host’s (one process) and beta still VS Code’s', async () => {
      await vs.reload();
      await vs.waitForTreeItem(/alpha.*\d+ tools/, 180_000);
      await vs.waitForTreeItem(/beta.*run by VS Code/, 60_000);
      await oneAlpha('after the reload');
      assert.deepEqual(perServer(), { alpha: 'mcpHost' });
    });

    await step('"Leave to VS Code" on alpha gives it back: MCP Host’s copy exits', async () => {
      await vs.contextAction(/alpha.*\d+ tools/, 'Leave to VS Code');
      await vs.waitForTreeItem(/alpha.*run by VS Code/, 60_000);
      await poll('MCP Host’s alpha to exit', 60_000, async () =>
        pidsWith(`${mark}-alpha`).length === 0 ? true : undefined,
      );
      assert.deepEqual(perServer(), { alpha: 'vscode' });
    });
  },
);
