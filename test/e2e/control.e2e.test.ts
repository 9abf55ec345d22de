// Control in real VS Code (code-server): a pickString input of .vscode/mcp.json asked with a pick
// list whose answer reaches the server's command line and is remembered across a reload, and a
// tool unticked in the tree that disappears from the Call Tool pick (and comes back when ticked);
// Clear Remembered Inputs asks again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERYTHING, killMarked, pidsWith, startVSCode, stepRunner, type VSCode } from './harness.js';
import { poll } from './support/workbench.js';
import { WAIT, quickInput, runCommandThenPick, waitForQuickInput } from './support/quick-input.js';
import { liveRowText, watchFor } from './support/views.js';

/** The command line of the marked server process (its args carry the input's value). */
function serverCommandLines(mark: string): string[] {
  return pidsWith(mark).map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      return '';
    }
  });
}

/** The tree checkbox is VS Code's Toggle widget: `aria-checked`, else its `checked` class. */
async function ticked(box: ReturnType<VSCode['serversView']>): Promise<boolean> {
  const aria = await box.getAttribute('aria-checked');
  if (aria === 'true' || aria === 'false') return aria === 'true';
  return /\bchecked\b/.test((await box.getAttribute('class')) ?? '');
}

function toolRow(vs: VSCode, name: string) {
  return vs
    .serversView()
    .locator('.monaco-list-row')
    .filter({
      has: vs.page
        .locator('.label-name, .monaco-highlighted-label')
        .filter({ hasText: new RegExp(`^\\s*${name}\\s*$`) }),
    })
    .first();
}

test(
  'control: a pickString input, and a tool unticked in the tree leaves the Call Tool pick',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-control-e2e-${randomBytes(4).toString('hex')}`;
    const configDir = mkdtempSync(join(tmpdir(), 'mcp-host-control-e2e-'));
    const vs = await startVSCode({
      workspace: 'control',
      name: 'control',
      env: {
        MCP_HOST_E2E_NODE: process.execPath,
        MCP_HOST_E2E_EVERYTHING: EVERYTHING,
        MCP_HOST_E2E_MARK: mark,
        MCP_HOST_CONFIG_DIR: configDir,
      },
    });
    const step = stepRunner(t, vs);
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });

    await step(
      'after approval the pickString input is asked with its options; the pick reaches the server',
      async () => {
        await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
        await vs.clickDialogButton('Allow');
        await waitForQuickInput(vs, /value for "greeting"/);
        const items = await vs.quickPickItems();
        assert.deepEqual(items, ['hello', 'bonjour', 'hola'], 'the default first, then the other options in order');
        assert.match(await quickInput(vs).widget.innerText(), /\(default\)/);
        await vs.pickQuickItem('bonjour');
        await vs.waitForTreeItem(/everything.*\d+ tools/, WAIT);
        const lines = await poll('the server process', 60_000, async () => {
          const l = serverCommandLines(mark);
          return l.length ? l : undefined;
        });
        assert.ok(
          lines.some((l) => l.includes('greeting=bonjour')),
          lines.join('\n'),
        );
      },
    );

    await step(
      'unticking echo in the tree hides it from Call Tool; the choice is stored for the workspace',
      async () => {
        await vs.expandTreeItem(/everything.*\d+ tools/);
        const echo = toolRow(vs, 'echo');
        await echo.waitFor({ state: 'visible', timeout: WAIT });
        const box = echo.locator('.custom-view-tree-node-item-checkbox');
        assert.equal(await ticked(box), true, 'a tool starts enabled');
        await box.click();
        await poll('echo to show as off', WAIT, async () =>
          (await echo.innerText()).includes('off') ? true : undefined,
        );
        await vs.waitForTreeItem(/Tools\W*\d+, 1 off/, WAIT);
        const file = await poll('the workspace state file', WAIT, async () => {
          const dir = join(configDir, 'workspaces');
          const f = existsSync(dir) ? readdirSync(dir).find((n) => n.endsWith('.json')) : undefined;
          return f && readFileSync(join(dir, f), 'utf8').includes('echo') ? join(dir, f) : undefined;
        });
        assert.deepEqual((JSON.parse(readFileSync(file, 'utf8')) as { disabledTools: unknown }).disabledTools, {
          everything: ['echo'],
        });

        await runCommandThenPick(vs, 'MCP Host: Call Tool…', /Call Tool/);
        const offered = await vs.quickPickItems();
        assert.ok(offered.includes('get-sum'), `other tools stay: ${offered.join(', ')}`);
        assert.ok(!offered.includes('echo'), `echo is gone: ${offered.join(', ')}`);
        await quickInput(vs).input.fill('echo');
        await poll('the filtered pick to settle', 10_000, async () =>
          (await vs.quickPickItems()).every((l) => l !== 'echo') ? true : undefined,
        );
        await vs.page.keyboard.press('Escape');
      },
    );

    await step(
      'after a reload: no second question for the input, echo still unticked; ticking it brings it back',
      async () => {
        const before = pidsWith(mark);
        await vs.reload();
        // Until the server is connected and listed (not the cached list), with the input it needed.
        const asked = watchFor(quickInput(vs).widget);
        await liveRowText(vs, 'everything', /\d+ tools/, WAIT);
        assert.equal(await asked.stop(), undefined, 'the remembered answer is used, nothing is asked');
        const fresh = await poll('a server process started after the reload', 60_000, async () =>
          pidsWith(mark).find((p) => !before.includes(p)),
        );
        const line = readFileSync(`/proc/${fresh}/cmdline`, 'utf8').split('\0').join(' ');
        assert.ok(line.includes('greeting=bonjour'), line);
        await vs.expandTreeItem(/everything.*\d+ tools/);
        const echo = toolRow(vs, 'echo');
        await echo.waitFor({ state: 'visible', timeout: WAIT });
        const box = echo.locator('.custom-view-tree-node-item-checkbox');
        assert.equal(await ticked(box), false, 'still off after the reload');
        await box.click();
        await poll('echo to be on again', WAIT, async () => ((await ticked(box)) ? true : undefined));
        await runCommandThenPick(vs, 'MCP Host: Call Tool…', /Call Tool/);
        await vs.pickQuickItem('echo');
        await vs.page.keyboard.press('Escape');
      },
    );

    await step('Clear Remembered Inputs asks again; a new answer restarts the server with it', async () => {
      const before = pidsWith(mark);
      await runCommandThenPick(vs, 'MCP Host: Clear Remembered Inputs', /value for "greeting"/);
      await vs.pickQuickItem('hola');
      const fresh = await poll('the server restarted with the new answer', WAIT, async () =>
        pidsWith(mark).find((p) => !before.includes(p)),
      );
      const line = readFileSync(`/proc/${fresh}/cmdline`, 'utf8').split('\0').join(' ');
      assert.ok(line.includes('greeting=hola'), line);
      await vs.waitForNotification(/Forgot 1 remembered input value/, WAIT);
    });
  },
);
