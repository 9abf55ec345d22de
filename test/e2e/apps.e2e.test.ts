// MCP Apps in real VS Code (code-server): a tool with an app opens it in a panel; the app renders
// with the editor theme, gets the tool input and result; its button calls the destructive,
// app-only tool through the host (which asks first) and shows the answer; its fetch to a loopback
// port the resource did not declare is blocked by the frame's CSP; the panel keeps its state
// while hidden, follows a theme change, and closing it tears the app down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { killMarked, poll, repoRoot, startVSCode, stepRunner, type VSCode } from './harness.js';
import {
  WAIT,
  answerDialog,
  answerInput,
  escapeRegExp,
  pickRow,
  quickInput,
  waitForQuickInput,
} from './support/quick-input.js';

const APP_SERVER = join(repoRoot, 'test', 'fixtures', 'servers', 'app-server.mjs');

/** Opens Call Tool… from the palette. */
async function openCallTool(vs: VSCode): Promise<void> {
  await openPickCommand(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
}

/** Runs a palette command that opens a pick list (the harness's runCommand), then waits for that pick. */
async function openPickCommand(vs: VSCode, command: string, nextTitle: RegExp | undefined): Promise<void> {
  await vs.runCommand(command);
  if (nextTitle) await waitForQuickInput(vs, nextTitle);
}

/** The app's own frame (the srcdoc frame inside the webview), found by its reset button. */
async function appFrame(vs: VSCode): Promise<Frame> {
  return poll('the app frame', WAIT, async () => {
    for (const f of vs.page.frames()) {
      if (
        (await f
          .locator('#reset')
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    return undefined;
  });
}

async function appText(vs: VSCode, id: string, match: RegExp): Promise<string> {
  return poll(`#${id} of the app to match ${match}`, WAIT, async () => {
    const f = await appFrame(vs);
    const text =
      (await f
        .locator(`#${id}`)
        .innerText({ timeout: 2000 })
        .catch(() => '')) ?? '';
    return match.test(text) ? text : undefined;
  });
}

test(
  'MCP Apps: the app renders, gets the result, and its button calls a destructive tool through the host',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-apps-e2e-${randomBytes(4).toString('hex')}`;
    let probeHits = 0;
    const probe = createServer((_req, res) => {
      probeHits++;
      res.writeHead(200, { 'access-control-allow-origin': '*' });
      res.end('secret');
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/probe`;
    const vs = await startVSCode({
      workspace: 'apps',
      name: 'apps',
      // Set, not left to the browser's preference, so the theme the app must report is known.
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_APP_SERVER: APP_SERVER, MCP_HOST_E2E_MARK: mark },
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
      probe.close();
    });
    const step = stepRunner(t, vs);

    await step('the server with an app connects; its app-only tool is not listed', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await answerDialog(vs, /Allow the MCP server "counter"/, 'Allow');
      await vs.focusMcpHostView();
      // show_counter, legacy_counter, counter_stats; reset_counter and bump_counter are for the app only.
      await vs.waitForTreeItem(/counter.*3 tools/, WAIT);
    });

    await step(
      'Call Tool… on show_counter opens its app, which renders with the theme, the input and the result',
      async () => {
        await openCallTool(vs);
        await quickInput(vs).input.fill('counter');
        const rows = await poll('the tool rows', WAIT, async () => {
          const labels = await quickInput(vs).widget.locator('.monaco-list-row .label-name').allInnerTexts();
          return labels.some((l) => l.includes('show_counter')) ? labels : undefined;
        });
        assert.ok(
          !rows.some((l) => l.includes('reset_counter')),
          `the app-only tool is not offered: ${rows.join(', ')}`,
        );
        await pickRow(vs, 'show_counter');
        await answerInput(vs, /counter \/ show_counter: start/, '7');
        await answerInput(vs, /counter \/ show_counter: probeUrl/, probeUrl);
        await appText(vs, 'status', /^connected$/);
        await appText(vs, 'result', /counter is 7/);
        assert.match(await appText(vs, 'input', /"start":7/), new RegExp(escapeRegExp(probeUrl)));
        await appText(vs, 'theme', /^dark$/);
        await appText(vs, 'bg', /^(#[0-9a-f]{3,8}|rgb\(.+\))$/i);
        // The app reports its content size (autoResize); the page sets the frame's height from it.
        const height = await poll('the frame height set from the app', WAIT, async () => {
          for (const f of vs.page.frames()) {
            const h = await f
              .evaluate(() => document.querySelector('iframe#app[sandbox]')?.getAttribute('style') ?? '')
              .catch(() => '');
            const m = /height:\s*(\d+)px/.exec(h);
            if (m) return Number(m[1]);
          }
          return undefined;
        });
        assert.ok(height > 100 && height < 900, `frame height ${height}px follows the app's content`);
        await vs.screenshot('app-rendered');
      },
    );

    await step("the frame's CSP blocks the app's fetch to a loopback port the resource did not declare", async () => {
      await appText(vs, 'probe', /^probe blocked: TypeError/);
      assert.equal(probeHits, 0, 'the probe port saw no request');
      // Nor can it reach the webview API or the page around it.
      const f = await appFrame(vs);
      assert.equal(await f.evaluate('typeof acquireVsCodeApi'), 'undefined');
      assert.match(
        String(
          await f.evaluate(
            "(() => { try { return String(parent.document.title); } catch (e) { return 'blocked: ' + e.name; } })()",
          ),
        ),
        /^blocked: SecurityError/,
      );
    });

    await step(
      "the app's button calls the destructive tool through the host: confirmation first, then the answer",
      async () => {
        const f = await appFrame(vs);
        await f.locator('#reset').click();
        await answerDialog(vs, /Run "reset_counter" on counter\?[\s\S]*destructive/, 'Run Tool');
        await appText(vs, 'answer', /^answer: counter reset from 7 to 0$/);
        const log = await vs.waitForLogFile(
          'MCP Host',
          /counter\/reset_counter \(asked by the app of show_counter\) done in/,
          WAIT,
        );
        assert.match(log, /calling counter\/reset_counter \(asked by the app of show_counter\)/);
        await vs.screenshot('app-answer');
      },
    );

    await step(
      "the app's own tool without hints asks once with a trust choice; once trusted it runs without asking, and the destructive tool still asks",
      async () => {
        const f = await appFrame(vs);
        await f.locator('#bump').click();
        await answerDialog(vs, /Run "bump_counter" on counter\?[\s\S]*trusting the app/, 'Trust App Until Closed');
        await appText(vs, 'answer', /^bumped: counter is 1$/);
        // No dialog is answered here: a question would hold the call, and the answer would never come.
        await f.locator('#bump').click();
        await appText(vs, 'answer', /^bumped: counter is 2$/);
        await vs.waitForLogFile('MCP Host', /the app of show_counter is trusted until its panel closes/, WAIT);
        await f.locator('#reset').click();
        await answerDialog(vs, /Run "reset_counter" on counter\?[\s\S]*destructive/, 'Run Tool');
        await appText(vs, 'answer', /^answer: counter reset from 2 to 0$/);
      },
    );

    await step('a tool hidden from apps is refused; a link asks first and opens nothing when declined', async () => {
      const f = await appFrame(vs);
      await f.locator('#stats').click();
      await appText(vs, 'answer', /^refused: .*not available to apps/);
      await f.locator('#link').click();
      await answerDialog(
        vs,
        /The app of "show_counter" \(counter\) wants to open a link[\s\S]*https:\/\/example\.com\/counter-docs/,
        'Cancel',
      );
      assert.deepEqual(vs.page.context().pages(), [vs.page], 'no page opened');
    });

    await step('the panel keeps its state while hidden and follows a theme change', async () => {
      await vs.runCommand('File: New Untitled Text File');
      // The app's tab goes to the background (its frame stays in the page, hidden by the workbench).
      const appTab = vs.page.locator('.tabs-container .tab', { hasText: 'show_counter (counter)' }).first();
      await vs.page
        .locator('.tabs-container .tab.active', { hasText: 'Untitled-1' })
        .waitFor({ state: 'visible', timeout: WAIT });
      assert.doesNotMatch((await appTab.getAttribute('class')) ?? '', /\bactive\b/);
      await appTab.click();
      await vs.page
        .locator('.tabs-container .tab.active', { hasText: 'show_counter (counter)' })
        .waitFor({ state: 'visible', timeout: WAIT });
      // Still the same app: this text only exists because of the Stats click before it was hidden.
      await appText(vs, 'answer', /^refused: .*not available to apps/);
      await appText(vs, 'result', /counter is 7/);
      await openPickCommand(vs, 'Preferences: Color Theme', undefined);
      const q = quickInput(vs);
      await q.widget
        .locator('.monaco-list-row', { hasText: 'Light Modern' })
        .first()
        .waitFor({ state: 'visible', timeout: WAIT });
      await q.input.fill('Light Modern');
      await q.input.press('Enter');
      await appText(vs, 'theme', /^light$/);
      // The editor's background colour reaches the app as a host style variable, and follows the theme.
      await appText(vs, 'bg', /^(#fff|#ffffff|rgb\(255, 255, 255\))$/i);
      await vs.screenshot('app-light');
    });

    await step('closing the panel tears the app down', async () => {
      await vs.runCommand('View: Close Editor');
      await vs.waitForLogFile('MCP Host', /closed the app of counter\/show_counter/, WAIT);
      await poll('the app frame to be gone', WAIT, async () => {
        for (const f of vs.page.frames())
          if (
            (await f
              .locator('#reset')
              .count()
              .catch(() => 0)) > 0
          )
            return undefined;
        return true;
      });
    });
  },
);
