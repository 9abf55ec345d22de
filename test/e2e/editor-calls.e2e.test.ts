// Calling tools, reading resources and answering elicitation in real VS Code (code-server): the
// palette command, schema-driven inputs, the result in the Markdown preview, re-run, a cancelled
// long call with progress, a resource read (from the palette and from a link in a result), and a
// declined elicitation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { repoRoot, startVSCode, type VSCode } from './harness.js';
import { poll } from './support/workbench.js';

const EVERYTHING = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const WAIT = 120_000;

function pidsWith(mark: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', mark], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The quick input (palette, pick lists and input boxes all use it). */
function quickInput(vs: VSCode) {
  const widget = vs.page.locator('.quick-input-widget');
  return { widget, input: widget.locator('input.input').first(), title: widget.locator('.quick-input-title') };
}

/** Waits until the quick input shows a title matching `title`. */
async function waitForQuickInput(vs: VSCode, title: RegExp): Promise<void> {
  const q = quickInput(vs);
  await poll(`a quick input titled ${title}`, WAIT, async () => {
    if (!(await q.widget.isVisible())) return undefined;
    const text = (await q.title.innerText().catch(() => '')) ?? '';
    return title.test(text) ? true : undefined;
  });
}

/**
 * Runs a palette command and waits for the quick input it opens (the harness's runCommand waits
 * for the widget to hide, which a command that opens a pick list at once may never let happen).
 */
async function runCommandThenPick(vs: VSCode, command: string, nextTitle: RegExp): Promise<void> {
  const q = quickInput(vs);
  await vs.page.keyboard.press('Escape');
  for (const key of ['F1', 'Control+Shift+P', 'F1']) {
    await vs.page.keyboard.press(key);
    try {
      await q.widget.waitFor({ state: 'visible', timeout: 5000 });
      break;
    } catch {
      // A modal or an unfocused page swallowed the key; try again.
    }
  }
  await q.input.fill(`>${command}`);
  await pickRow(vs, command);
  await waitForQuickInput(vs, nextTitle);
}

/** Clicks the pick-list row whose label is exactly `label` (after typing it as a filter). */
async function pickRow(vs: VSCode, label: string, filter = true): Promise<void> {
  const q = quickInput(vs);
  if (filter && !(await q.input.inputValue()).startsWith('>')) await q.input.fill(label);
  const row = q.widget.locator('.monaco-list-row').filter({
    has: vs.page.locator('.label-name').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }),
  });
  await row.first().waitFor({ state: 'visible', timeout: WAIT });
  await row.first().click();
}

/** Answers the input box titled `title` with `value` (replacing its pre-filled default). */
async function answerInput(vs: VSCode, title: RegExp, value: string): Promise<void> {
  await waitForQuickInput(vs, title);
  const q = quickInput(vs);
  await q.input.fill(value);
  await q.input.press('Enter');
}

/** Text of the Markdown preview (a webview, so nested frames) that contains `needle`. */
async function previewText(vs: VSCode, needle: string | RegExp, timeoutMs = WAIT): Promise<string> {
  return poll(`a Markdown preview containing ${needle}`, timeoutMs, async () => {
    for (const frame of vs.page.frames()) {
      const text = await frame.evaluate(() => (document.querySelector('.markdown-body') ? document.body.innerText : '')).catch(() => '');
      if (text && (typeof needle === 'string' ? text.includes(needle) : needle.test(text))) return text;
    }
    return undefined;
  });
}

/** Clicks the first link in a Markdown preview whose text contains `linkText`. */
async function clickPreviewLink(vs: VSCode, linkText: string): Promise<void> {
  const frame = await poll(`a preview with a link "${linkText}"`, WAIT, async () => {
    for (const f of vs.page.frames()) {
      const n = await f.locator('.markdown-body a', { hasText: linkText }).count().catch(() => 0);
      if (n > 0) return f;
    }
    return undefined;
  });
  await frame.locator('.markdown-body a', { hasText: linkText }).first().click();
}

async function answerDialog(vs: VSCode, match: RegExp, button: string): Promise<string> {
  const dialog = vs.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: WAIT });
  const text = await dialog.innerText();
  assert.match(text, match);
  await dialog.locator('.dialog-buttons .monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) }).first().click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}

function count(text: string, re: RegExp): number {
  return text.split('\n').filter((l) => re.test(l)).length;
}

test('calls from the palette: echo, re-run, cancel a long call, read resources, elicitation', { timeout: 900_000 }, async (t) => {
  const mark = `mcp-host-calls-e2e-${randomBytes(4).toString('hex')}`;
  const vs = await startVSCode({
    workspace: 'calls',
    name: 'editor-calls',
    env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_EVERYTHING: EVERYTHING, MCP_HOST_E2E_MARK: mark },
  });
  t.after(async () => {
    await vs.dispose();
    for (const pid of pidsWith(mark)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  await t.test('the project server is approved and connects', async () => {
    await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
    await answerDialog(vs, /Allow the MCP server "everything"|Allow 1 MCP server/, 'Allow');
    await vs.focusMcpHostView();
    await vs.waitForTreeItem(/everything.*\d+ tools/, WAIT);
  });

  await t.test('Call Tool…: pick echo, type the argument, the result document shows the answer', async () => {
    await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
    // Read-only tools carry the eye marker, destructive ones the warning marker.
    const rows = await quickInput(vs).widget.locator('.monaco-list-row').allInnerTexts();
    assert.ok(rows.some((r) => /echo/.test(r)), `echo offered: ${rows.slice(0, 5).join(' | ')}`);
    await pickRow(vs, 'echo');
    await answerInput(vs, /everything \/ echo: message/, 'hello from the palette');
    const text = await previewText(vs, 'Echo: hello from the palette');
    assert.match(text, /echo/);
    assert.match(text, /Server everything/);
    assert.doesNotMatch(text, /failed/);
    await vs.screenshot('call-result');
  });

  await t.test('Re-run Last Tool Call sends the same arguments again', async () => {
    await vs.runCommand('MCP Host: Re-run Last Tool Call');
    const log = await vs.waitForLogFile('MCP Host', /(calling everything\/echo[\s\S]*){2}/, WAIT);
    assert.equal(count(log, /calling everything\/echo$/), 2);
    await poll('the second echo to finish', WAIT, async () => {
      const l = vs.readLogFile('MCP Host') ?? '';
      return count(l, /everything\/echo done in/) >= 2 ? true : undefined;
    });
    await previewText(vs, 'Echo: hello from the palette');
  });

  await t.test('a long call reports progress in a notification and Cancel stops it', async () => {
    await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
    await pickRow(vs, 'trigger-long-running-operation');
    await answerInput(vs, /trigger-long-running-operation: duration/, '60');
    await answerInput(vs, /trigger-long-running-operation: steps/, '60');
    const toast = vs.page.locator('.notification-toast').filter({ hasText: /trigger-long-running-operation/ });
    await poll('a progress message from the server', WAIT, async () => {
      const text = (await toast.first().innerText().catch(() => '')) ?? '';
      return /\b[1-9]\d*\/60\b/.test(text) ? text : undefined;
    });
    await vs.screenshot('call-progress');
    await toast.first().locator('.monaco-button', { hasText: 'Cancel' }).first().click();
    const log = await vs.waitForLogFile('MCP Host', /everything\/trigger-long-running-operation cancelled by the user/, WAIT);
    assert.doesNotMatch(log, /trigger-long-running-operation (done|failed)/);
    await toast.first().waitFor({ state: 'hidden', timeout: WAIT });
  });

  await t.test('Read Resource…: a template asks for its variable and the content opens', async () => {
    await runCommandThenPick(vs, 'MCP Host: Read Resource…', /MCP Host: Read Resource/);
    await pickRow(vs, 'Dynamic Text Resource', false);
    await answerInput(vs, /resourceId/, '7');
    const text = await previewText(vs, 'Resource 7: This is a plaintext resource');
    assert.match(text, /demo:\/\/resource\/dynamic\/text\/7/);
    await vs.screenshot('resource-result');
  });

  await t.test('a resource link in a tool result opens the resource', async () => {
    await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
    await pickRow(vs, 'get-resource-links');
    await answerInput(vs, /get-resource-links: count/, '2');
    await previewText(vs, 'demo://resource/dynamic/text/2');
    await clickPreviewLink(vs, 'demo://resource/dynamic/text/2');
    const text = await previewText(vs, 'Resource 2: This is a plaintext resource');
    assert.match(text, /demo:\/\/resource\/dynamic\/text\/2/);
  });

  await t.test('elicitation: the server asks, the user declines, the server hears "decline"', async () => {
    await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
    await pickRow(vs, 'trigger-elicitation-request');
    const asked = await answerDialog(vs, /everything asks for input/, 'Decline');
    assert.match(asked, /Please provide inputs/);
    const text = await previewText(vs, /declined/i);
    assert.match(text, /trigger-elicitation-request/);
  });
});
