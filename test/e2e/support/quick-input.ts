// Quick-input, dialog and preview helpers for palette-driven e2e tests (calls, apps, control,
// features): one copy of each move.
import assert from 'node:assert/strict';
import type { VSCode } from '../harness.js';
import { poll } from './workbench.js';

export const WAIT = 120_000;

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function quickInput(vs: VSCode) {
  const widget = vs.page.locator('.quick-input-widget');
  return { widget, input: widget.locator('input.input').first(), title: widget.locator('.quick-input-title') };
}

export async function waitForQuickInput(vs: VSCode, title: RegExp): Promise<void> {
  const q = quickInput(vs);
  await poll(`a quick input titled ${title}`, WAIT, async () => {
    if (!(await q.widget.isVisible())) return undefined;
    const text = (await q.title.innerText().catch(() => '')) ?? '';
    return title.test(text) ? true : undefined;
  });
}

/**
 * Runs a palette command whose pick offers `item`, and clicks it. A result preview from the step
 * before can take the focus late (VS Code 1.139 does it after the pick has opened), which closes
 * the pick: then the command is run again, until the click lands on an open pick (WAIT at most).
 */
export async function commandThenPickItem(vs: VSCode, command: string, item: RegExp): Promise<void> {
  const q = quickInput(vs);
  await poll(`${command} → ${item}`, WAIT, async () => {
    if (!(await q.widget.isVisible())) await vs.runCommand(command);
    const row = q.widget
      .locator('.monaco-list-row')
      .filter({ has: vs.page.locator('.label-name').filter({ hasText: item }) });
    const clicked = await row
      .first()
      .click({ timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    return clicked ? true : undefined;
  });
}

/**
 * Runs a palette command (the harness's runCommand) and waits for the quick input it opens. A
 * result preview of the step before can open late and take the focus, which closes that input
 * (seen after a call whose error result opened its preview just after the log line the test
 * waited for): when no quick input has been open for RERUN_AFTER_MS, the command runs again.
 */
export async function runCommandThenPick(vs: VSCode, command: string, nextTitle: RegExp): Promise<void> {
  const RERUN_AFTER_MS = 3000;
  const q = quickInput(vs);
  await vs.runCommand(command);
  let closedSince: number | undefined;
  await poll(`a quick input titled ${nextTitle}`, WAIT, async () => {
    if (await q.widget.isVisible()) {
      closedSince = undefined;
      const text = (await q.title.innerText().catch(() => '')) ?? '';
      return nextTitle.test(text) ? true : undefined;
    }
    closedSince ??= Date.now();
    if (Date.now() - closedSince >= RERUN_AFTER_MS) {
      await vs.runCommand(command);
      closedSince = undefined;
    }
    return undefined;
  });
}

/** Clicks the pick-list row whose label is exactly `label` (after typing it as a filter). */
export async function pickRow(vs: VSCode, label: string, filter = true): Promise<void> {
  const q = quickInput(vs);
  if (filter && !(await q.input.inputValue()).startsWith('>')) await q.input.fill(label);
  const row = q.widget.locator('.monaco-list-row').filter({
    has: vs.page.locator('.label-name').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }),
  });
  await row.first().waitFor({ state: 'visible', timeout: WAIT });
  await row.first().click();
}

/**
 * Labels of the visible rows of the open quick input. Only `:visible` rows: the list keeps rows of
 * earlier items for reuse, hidden, and their stale labels would otherwise be read too.
 */
export async function rowLabels(vs: VSCode): Promise<string[]> {
  const labels = await quickInput(vs).widget.locator('.monaco-list-row:visible .label-name').allInnerTexts();
  return labels.map((l) => l.trim());
}

export async function answerDialog(vs: VSCode, match: RegExp, button: string): Promise<string> {
  const dialog = vs.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: WAIT });
  const text = await dialog.innerText();
  assert.match(text, match);
  await dialog
    .locator('.dialog-buttons .monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(button)}\\s*$`) })
    .first()
    .click();
  await poll(`the dialog to close after "${button}"`, WAIT, async () => {
    if (!(await dialog.isVisible())) return true;
    const now = await dialog.innerText().catch(() => '');
    return now !== text ? true : undefined;
  });
  return text;
}

/** Text of the Markdown preview (a webview) that contains `needle`. */
export async function previewText(vs: VSCode, needle: string | RegExp, timeoutMs = WAIT): Promise<string> {
  return poll(`a Markdown preview containing ${needle}`, timeoutMs, async () => {
    for (const frame of vs.page.frames()) {
      const text = await frame
        .evaluate(() => (document.querySelector('.markdown-body') ? document.body.innerText : ''))
        .catch(() => '');
      if (text && (typeof needle === 'string' ? text.includes(needle) : needle.test(text))) return text;
    }
    return undefined;
  });
}

/** Answers the input box titled `title` with `value` (replacing its pre-filled default). */
export async function answerInput(vs: VSCode, title: RegExp, value: string): Promise<void> {
  await waitForQuickInput(vs, title);
  const q = quickInput(vs);
  await q.input.fill(value);
  await q.input.press('Enter');
}

/** Clicks the first link in a Markdown preview whose text contains `linkText`. */
export async function clickPreviewLink(vs: VSCode, linkText: string): Promise<void> {
  const frame = await poll(`a preview with a link "${linkText}"`, WAIT, async () => {
    for (const f of vs.page.frames()) {
      const n = await f
        .locator('.markdown-body a', { hasText: linkText })
        .count()
        .catch(() => 0);
      if (n > 0) return f;
    }
    return undefined;
  });
  await frame.locator('.markdown-body a', { hasText: linkText }).first().click();
}

/**
 * Runs a CodeLens command on the active editor's first line (the JSON documents' Send / Cancel)
 * from the keyboard, through "Show CodeLens Commands for Current Line": VS Code rebuilds the lens
 * elements a moment after each edit, and a mouse click that straddles a rebuild is lost. If the
 * line has no such lens the pick never shows and the failure screenshot says so.
 */
export async function chooseLens(vs: VSCode, title: string): Promise<void> {
  await vs.page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await vs.page.keyboard.press('Control+Home');
  await vs.runCommand('Show CodeLens Commands for Current Line');
  await pickRow(vs, title).catch(async (err: unknown) => {
    await vs.screenshot(`lens-${title}-not-offered`);
    throw err;
  });
}

/**
 * Calls server-everything's `simulate-research-query` (a task tool that runs about four seconds)
 * from the palette with `topic`, answering "ambiguous" with false; returns once it was sent.
 */
export async function callResearchQuery(vs: VSCode, topic: string): Promise<void> {
  await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
  await pickRow(vs, 'simulate-research-query');
  await answerInput(vs, /simulate-research-query: topic/, topic);
  await waitForQuickInput(vs, /simulate-research-query: ambiguous/);
  await pickRow(vs, 'false', false);
}

/**
 * In the sampling reply editor (Send / Cancel lenses): checks the request it shows against
 * `expect`, types `reply` as the model's answer and sends it.
 */
export async function writeSamplingReply(vs: VSCode, expect: RegExp[], reply: string): Promise<void> {
  const editor = vs.page.locator('.editor-instance .monaco-editor').first();
  const lens = (text: string | RegExp) =>
    editor.locator('.codelens-decoration a, .codelens-decoration span').filter({ hasText: text }).first();
  await lens('Send').waitFor({ state: 'visible', timeout: WAIT });
  const shown = await poll('the reply document', WAIT, async () => {
    const text = await vs.activeEditorText();
    return /asks for a model reply/.test(text) ? text : undefined;
  });
  for (const e of expect) assert.match(shown, e);
  await editor.locator('.view-lines').click();
  await vs.page.keyboard.press('Control+A');
  await vs.page.keyboard.press('Delete');
  const answer = JSON.stringify({
    role: 'assistant',
    content: { type: 'text', text: reply },
    model: 'user',
    stopReason: 'endTurn',
  });
  await vs.page.keyboard.type(answer);
  // The editor may auto-close brackets and quotes while typing: what counts is what the document holds.
  // Monaco may not have rendered the last keystrokes yet: wait until the rendered text parses.
  const written = await poll('the typed reply in the editor', 30_000, async () => {
    try {
      return JSON.parse(await vs.activeEditorText()) as { content: { text: string } };
    } catch {
      return undefined;
    }
  });
  assert.equal(written.content.text, reply);
  await chooseLens(vs, 'Send');
}

/**
 * Waits for the "open a page" dialog of `server` naming `host`, checks nothing opened before, agrees, and
 * waits for the browser tab at `url` (served by the browser context: no internet here).
 */
export async function agreeToOpen(vs: VSCode, server: string, host: RegExp, url: RegExp): Promise<string> {
  const ctx = vs.page.context();
  await ctx.route(/^https:\/\/(consent\.example\.com|modelcontextprotocol\.io)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>page</h1>' }),
  );
  const dialog = vs.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: WAIT });
  assert.deepEqual(ctx.pages(), [vs.page], 'nothing opens before the user agrees');
  const text = await answerDialog(
    vs,
    new RegExp(`${escapeRegExp(server)} asks you to open a page on ${host.source}`),
    'Open in Browser',
  );
  const page = await poll('the browser to open the page', WAIT, async () => {
    const opened = ctx.pages().find((p) => p !== vs.page);
    if (opened) return opened;
    // VS Code's own link protection may ask once more for a domain it does not trust yet.
    if ((await dialog.isVisible()) && /external website/i.test(await dialog.innerText()))
      await answerDialog(vs, /external website/i, 'Open');
    return undefined;
  });
  await poll(`the page ${url}`, WAIT, async () => (url.test(page.url()) ? true : undefined));
  await page.close();
  return text;
}
