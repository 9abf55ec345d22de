// The gateway registered with VS Code's own MCP support, in a VS Code that has the provider API:
// the default code-server (4.139.1, VS Code 1.139.1 on Node 24); the API first shipped in 1.101.
// VS Code lists our definition under "MCP: List Servers", starts it from there, connects to the
// gateway with the bearer token the definition carries and lists the tools of the servers that are
// connected in our tree, and its resource picker shows their resources. After the gateway restarts
// (new port, new token) VS Code connects again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { artifactsDir, EVERYTHING, killMarked, poll, startVSCode, stepRunner, type VSCode } from './harness.js';
import { searchUserSettings } from './support/workbench.js';
import { withGatewayClient } from './support/gateway-client.js';

/** Label and description (VS Code's connection state) of each row of the open quick pick. */
async function quickPickRows(page: Page): Promise<{ label: string; description: string }[]> {
  return page.locator('.quick-input-widget .monaco-list-row').evaluateAll((rows) =>
    rows.map((r) => ({
      label: (r.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (r.querySelector('.label-description')?.textContent ?? '').trim(),
    })),
  );
}

/** Opens "MCP: List Servers" and waits for our row in the given state; leaves the pick open. */
async function listServersUntil(
  vs: VSCode,
  state: RegExp,
  timeoutMs: number,
): Promise<{ label: string; description: string }[]> {
  return poll(`"MCP: List Servers" to show MCP Host ${String(state)}`, timeoutMs, async () => {
    await vs.runCommand('MCP: List Servers');
    const rows = await poll('the server list', 15_000, async () => {
      const r = await quickPickRows(vs.page);
      return r.some((x) => x.label === 'MCP Host') ? r : undefined;
    }).catch(() => undefined);
    if (rows?.some((r) => r.label === 'MCP Host' && state.test(r.description))) return rows;
    await vs.page.keyboard.press('Escape');
    return undefined;
  });
}

function count(text: string, pattern: RegExp): number {
  return [...text.matchAll(new RegExp(pattern.source, 'g'))].length;
}

test(
  'current VS Code sees the gateway through the MCP server definition provider and connects with its token',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-chat-e2e-${randomBytes(4).toString('hex')}`;
    const home = mkdtempSync(join(tmpdir(), 'chat-e2e-home-'));
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const servers = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', mark] } };
    const vs = await startVSCode({
      workspace: 'gateway',
      name: 'chat-registration',
      env: { MCP_HOST_HOME: home },
      settings: { 'mcpHost.servers': servers },
      startTimeoutMs: 180_000,
    });
    const step = stepRunner(t, vs, () => {
      for (const channel of ['exthost', 'MCP Host']) {
        const text = vs.readLogFile(channel);
        if (text) writeFileSync(join(artifactsDir, `chat-registration-${channel.replace(/\W+/g, '-')}.log`), text);
      }
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });
    let tools = 0;

    await step('the extension finds the provider API and registers the gateway; the tree is connected', async () => {
      const log = await vs.waitForLogFile('MCP Host', /gateway: offered to VS Code’s MCP support \(chat\)/, 180_000);
      assert.doesNotMatch(log, /has no MCP server definition provider API/);
      const row = await vs.waitForTreeItem(/everything.*\d+ tools/, 120_000);
      const label = (await row.getAttribute('aria-label')) ?? (await row.innerText());
      tools = Number(/(\d+) tools/.exec(label)?.[1]);
      assert.ok(tools > 5, label);
    });

    await step('"MCP: List Servers" shows MCP Host under our provider’s label', async () => {
      const rows = await listServersUntil(vs, /.*/, 120_000);
      const ours = rows.find((r) => r.label === 'MCP Host')!;
      // Nothing has started it: chat is not in use in this editor.
      assert.match(ours.description, /Stopped|Running|Starting/);
      await vs.screenshot('list-servers');
    });

    await step('starting it from there: VS Code connects with the bearer token and discovers every tool', async () => {
      await vs.pickQuickItem('MCP Host');
      await vs.pickQuickItem(/^\s*(Start Server|Restart Server)\s*$/);
      const log = await vs.waitForLogFile('MCP Host', /gateway: agent connected/, 120_000);
      // Its first connect carried the token: nothing was refused on the way.
      assert.doesNotMatch(log, /gateway: refused/);
      const output = await vs.waitForOutput('MCP: MCP Host', /Discovered \d+ tools/, 120_000);
      assert.equal(Number(/Discovered (\d+) tools/.exec(output)?.[1]), tools, output);
      assert.match(output, /Connection state: Running/);
      await listServersUntil(vs, /Running/, 60_000);
      await vs.page.keyboard.press('Escape');
      // Our status bar counts VS Code as a connected agent.
      await poll('the gateway status bar entry to count VS Code', 60_000, async () =>
        (await vs.statusBar()).find((e) => /MCP Host gateway: 1 agent connected/.test(e.label)),
      );
    });

    await step('"MCP: Browse Resources..." lists the resources VS Code read through the gateway', async () => {
      // What the gateway offers, asked as any agent would (the discovery file has the URL and token).
      const names = await withGatewayClient(home, async (c) =>
        (await c.listResources()).resources.map((r) => r.title ?? r.name),
      );
      assert.ok(names.length > 0);
      await vs.runCommand('MCP: Browse Resources...');
      const shown = await poll('VS Code’s resource picker to show the gateway’s resources', 60_000, async () => {
        const items = await vs.quickPickItems();
        return items.some((i) => names.includes(i.trim())) ? items : undefined;
      });
      assert.ok(shown.filter((i) => names.includes(i.trim())).length > 0, shown.join(', '));
      await vs.page.keyboard.press('Escape');
    });

    await step(
      'after the gateway restarts (new port and token) VS Code connects again with the new token',
      async () => {
        const discovery = (): { url: string; token: string } | undefined => {
          const dir = join(home, 'gateway');
          const file = existsSync(dir) ? readdirSync(dir).find((f) => /^\d+\.json$/.test(f)) : undefined;
          return file
            ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { url: string; token: string })
            : undefined;
        };
        const old = discovery();
        assert.ok(old, 'the discovery file of the running gateway');
        // Through the Settings editor, as a user would (code-server does not pick up edits of settings.json on disk reliably).
        const page = vs.page;
        await searchUserSettings(page, 'mcpHost.gateway.enabled', 30_000);
        const box = page
          .locator('.settings-editor .setting-item-bool')
          .filter({ hasText: 'Gateway: Enabled' })
          .locator('.setting-value-checkbox')
          .first();
        await box.waitFor({ state: 'visible' });
        assert.equal(await box.getAttribute('aria-checked'), 'true');
        await box.click();
        await poll('the gateway to stop (its discovery file goes)', 60_000, async () =>
          discovery() ? undefined : true,
        );
        // Off: the definition is withdrawn, so VS Code no longer lists it.
        await poll('MCP Host to leave "MCP: List Servers"', 60_000, async () => {
          await vs.runCommand('MCP: List Servers');
          const rows = await poll('the server list', 15_000, async () => {
            const r = await quickPickRows(page);
            return r.length > 0 ? r : undefined;
          }).catch(() => []);
          await page.keyboard.press('Escape');
          return rows.length > 0 && !rows.some((r) => r.label === 'MCP Host') ? true : undefined;
        });
        await searchUserSettings(page, 'mcpHost.gateway.enabled', 30_000);
        await box.waitFor({ state: 'visible' });
        await box.click();
        const fresh = await poll('the restarted gateway’s discovery file', 60_000, async () => discovery());
        assert.notEqual(fresh.token, old.token, 'a restarted gateway has a new token');
        const connectsBefore = count(vs.readLogFile('MCP Host') ?? '', /gateway: agent connected/);
        await listServersUntil(vs, /.*/, 120_000);
        await vs.pickQuickItem('MCP Host');
        await vs.pickQuickItem(/^\s*(Start Server|Restart Server)\s*$/);
        const log = await poll('VS Code to connect to the restarted gateway', 120_000, async () => {
          const text = vs.readLogFile('MCP Host') ?? '';
          return count(text, /gateway: agent connected/) > connectsBefore ? text : undefined;
        });
        assert.doesNotMatch(log, /gateway: refused/);
        await listServersUntil(vs, /Running/, 60_000);
        await page.keyboard.press('Escape');
      },
    );
  },
);
