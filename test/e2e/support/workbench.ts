// Page-level helpers that drive VS Code's workbench the way a user does: palette, views, tree,
// editors, notifications, status bar, Output panel. Selectors are VS Code 1.100's DOM; they live
// here only, so a workbench update means fixing one file.
import { type Locator, type Page } from 'playwright-core';

/** The element VS Code gives the sidebar composite of our view container. */
export const MCP_HOST_CONTAINER = '[id="workbench.view.extension.mcpHost"]';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import { poll } from '../../support/wait.js';

export { poll };

/** Hover cards (a tree row's tooltip, a button's hover). */
export const HOVER = '.workbench-hover, .monaco-hover:not(.hidden)';

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * Makes sure no hover card lies over `target` before it is clicked. A card left by the previous
 * row stays open while the mouse rests on it, so the mouse first leaves the workbench (0,0). That
 * corner has its own hover (the menu button's), which can open before the old card closes and then
 * stays as long as the mouse does: only a card over the target matters, and one that stays over it
 * is closed with Escape (hovers hide on a key press).
 */
export async function clearHoversOver(page: Page, target: Locator, timeoutMs: number): Promise<void> {
  await page.mouse.move(0, 0);
  const started = Date.now();
  let escaped = false;
  await poll('no hover card over the element to click', timeoutMs, async () => {
    // Each read is bounded: a locator read waits (60 s by default) for an element that is not
    // there, and a card can close between finding it and reading its box (a CI run waited so).
    const box = await target.boundingBox({ timeout: 2000 });
    if (!box) return undefined;
    const cards = await page.locator(HOVER).evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        const st = getComputedStyle(e);
        const shown = st.display !== 'none' && st.visibility !== 'hidden' && r.width > 0 && r.height > 0;
        return { x: r.x, y: r.y, width: r.width, height: r.height, shown };
      }),
    );
    if (!cards.some((c) => c.shown && overlaps(box, c))) return true;
    if (!escaped && Date.now() - started > 1500) {
      escaped = true;
      await page.keyboard.press('Escape');
    }
    return undefined;
  });
}

/** Waits until the workbench has rendered its activity bar and status bar. */
export async function waitForWorkbench(page: Page, timeoutMs: number): Promise<void> {
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The activity-bar entry of a view container, by its title (ours is "MCP Host"). */
export function activityBarItem(page: Page, title: string): Locator {
  return page
    .locator(
      `.part.activitybar li.action-item[aria-label="${title}"], .part.activitybar li.action-item:has(> a[aria-label="${title}"])`,
    )
    .first();
}

/**
 * Opens the view container's sidebar and returns once its title is on screen. Decided from what
 * the page shows, each time: right after a reload the workbench is still restoring the sidebar, so
 * a state read then can be stale and a click meant to open it can close it. So: when the title is
 * visible we are done; when it is not, click the activity-bar entry (which opens a hidden or other
 * container), give the workbench a moment to show it, and look again.
 */
export async function showViewContainer(page: Page, title: string, timeoutMs: number): Promise<void> {
  const item = activityBarItem(page, title);
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  const heading = page
    .locator(`.part.sidebar .composite.title h2`)
    .filter({ hasText: new RegExp(`^${escapeRegExp(title)}`) });
  await poll(`the ${title} view to show`, timeoutMs, async () => {
    if (await heading.isVisible()) return true;
    await item.click();
    await heading.waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
    return (await heading.isVisible()) ? true : undefined;
  });
}

/** The pane of a view (by its name, e.g. "Servers") inside a sidebar composite. */
export function viewPane(page: Page, containerSelector: string, viewName: string): Locator {
  return page.locator(`${containerSelector} .pane`).filter({
    has: page.locator(`.pane-header[aria-label="${viewName} Section"]`),
  });
}

/** A row of a tree view whose label contains `text` (string: substring, RegExp: match). */
export function treeRow(pane: Locator, text: string | RegExp): Locator {
  return pane.locator('.monaco-list-row').filter({ hasText: text });
}

/** Opens the command palette (F1), types the title and runs the entry whose label is exactly it. */
export async function runCommand(page: Page, title: string, timeoutMs: number): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const exact = new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`);
  const row = widget.locator('.monaco-list-row').filter({
    has: page.locator('.quick-input-list-label .label-name, .monaco-icon-label .label-name').filter({ hasText: exact }),
  });
  // Close whatever quick input or menu is open so F1 reaches the workbench.
  await page.keyboard.press('Escape');
  let offered: string[] = [];
  // Since when the palette has shown ">title" with no such entry: after a few seconds of that the
  // command is not there (a test that expects a missing command gets its answer fast).
  let missingSince: number | undefined;
  // Each round looks at the screen and does the next step from there: an editor or panel that
  // opens late can take the focus and close the palette at any point (after F1, after typing,
  // before the click), and then the step it undid is done again.
  const outcome = await poll(
    `the palette to run "${title}"`,
    timeoutMs,
    async (): Promise<'ran' | 'missing' | undefined> => {
      if (!(await widget.isVisible())) {
        missingSince = undefined;
        for (const key of ['F1', 'Control+Shift+P']) {
          await page.keyboard.press(key);
          if (
            await widget.waitFor({ state: 'visible', timeout: 3000 }).then(
              () => true,
              () => false,
            )
          )
            break;
        }
        if (!(await widget.isVisible())) {
          // Keys can land in a webview or terminal that keeps them; the title bar's command center
          // opens the same quick input with a click, and the ">" typed below switches it to commands.
          await page
            .locator('.part.titlebar .command-center .action-label, .part.titlebar .command-center')
            .first()
            .click({ timeout: 3000 })
            .catch(() => undefined);
          return undefined;
        }
      }
      if ((await input.inputValue().catch(() => '')) !== `>${title}`) {
        missingSince = undefined;
        await input.fill(`>${title}`, { timeout: 3000 }).catch(() => undefined);
      }
      if (
        !(await row
          .first()
          .waitFor({ state: 'visible', timeout: 3000 })
          .then(
            () => true,
            () => false,
          ))
      ) {
        offered = await widget
          .locator('.monaco-list-row')
          .allInnerTexts()
          .catch(() => []);
        const shown = (await widget.isVisible()) && (await input.inputValue().catch(() => '')) === `>${title}`;
        if (!shown) return undefined;
        missingSince ??= Date.now();
        return Date.now() - missingSince > 8000 ? 'missing' : undefined;
      }
      // The keyboard when the entry has the focus (the palette focuses its best match): on a loaded
      // machine a click can land and still report a timeout (its actionability checks and the click
      // together outlast it), and clicking again then runs the command twice (1.139: four Untitled
      // files for one "File: New Untitled Text File"). A key press is dispatched or not.
      if (
        (
          await row
            .first()
            .getAttribute('class', { timeout: 3000 })
            .catch(() => '')
        )?.includes('focused')
      ) {
        await page.keyboard.press('Enter');
        return 'ran';
      }
      if (
        await row
          .first()
          .click({ timeout: 3000 })
          .then(
            () => true,
            () => false,
          )
      )
        return 'ran';
      // A click reported as failed may still have run the command: if it opened its own quick
      // input, the palette's text is gone from the widget.
      const left = (await widget.isVisible()) ? await input.inputValue({ timeout: 1000 }).catch(() => '') : `>${title}`;
      return left !== `>${title}` ? 'ran' : undefined;
    },
  );
  if (outcome === 'missing') {
    await page.keyboard.press('Escape');
    throw new Error(`command "${title}" is not in the palette; it offered: ${JSON.stringify(offered.slice(0, 10))}`);
  }
  // Done when the palette is gone: either the widget closed, or the command opened its own quick
  // pick / input box in the same widget (then the palette's ">title" text is no longer there).
  // A command that reloads the window takes the widget away mid-check (1.139 reloads late enough to
  // be caught looking): an input that is gone counts as closed instead of waiting for a new one.
  await poll(`the palette to close after "${title}"`, timeoutMs, async () => {
    if (!(await widget.isVisible())) return true;
    const value = await input.inputValue({ timeout: 1000 }).catch(() => undefined);
    return value !== `>${title}` ? true : undefined;
  });
}

/**
 * Text of the lines a Monaco editor has rendered, in document order. Monaco renders only the
 * visible lines (plus a margin): callers reading long documents should scroll first.
 */
export async function editorText(editor: Locator): Promise<string> {
  const lines = await editor.locator('.view-lines .view-line').evaluateAll((els) =>
    els
      .map((el) => ({
        top: parseFloat((el as HTMLElement).style.top || '0'),
        text: (el.textContent ?? '').replace(/\u00a0/g, ' '),
      }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text),
  );
  return lines.join('\n');
}

/** The editor of the active editor group. */
export function activeEditor(page: Page): Locator {
  return page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
}

/** Messages of the notification toasts currently on screen. */
export async function notificationMessages(page: Page): Promise<string[]> {
  return page.locator('.notifications-toasts .notification-toast .notification-list-item-message').allInnerTexts();
}

/** Every status bar entry as { id, text, tooltip }; `id` is VS Code's element id for the item. */
export async function statusBarEntries(page: Page): Promise<{ id: string; text: string; label: string }[]> {
  return page.locator('.part.statusbar .statusbar-item').evaluateAll((els) =>
    els.map((el) => ({
      id: el.id,
      text: ((el as HTMLElement).innerText ?? '').trim(),
      label: el.querySelector('[aria-label]')?.getAttribute('aria-label') ?? el.getAttribute('aria-label') ?? '',
    })),
  );
}

/**
 * The channel the Output panel shows right now and its rendered text, without touching the UI;
 * undefined when the Output view is not visible. Use it to check that a command showed a channel.
 */
export async function shownOutput(page: Page): Promise<{ channel: string; text: string } | undefined> {
  const panel = page.locator('.part.panel');
  if (!(await panel.isVisible())) return undefined;
  const picker = panel.locator('select.monaco-select-box').filter({ has: page.locator('option') });
  if ((await picker.count()) === 0 || !(await picker.first().isVisible())) return undefined;
  const channel = await picker.first().evaluate((el) => {
    const s = el as HTMLSelectElement;
    return s.options[s.selectedIndex]?.text ?? '';
  });
  return { channel, text: await editorText(panel.locator('.monaco-editor').first()) };
}

/** Shows the Output panel on channel `name` (choosing it in the channel picker) and returns its text. */
export async function outputChannelText(page: Page, name: string, timeoutMs: number): Promise<string> {
  const panel = page.locator('.part.panel');
  const picker = panel.locator('select.monaco-select-box').filter({ has: page.locator('option', { hasText: name }) });
  if (!(await panel.isVisible()) || (await picker.count()) === 0) {
    await runCommand(page, 'View: Show Output', timeoutMs);
  }
  await picker.first().waitFor({ state: 'visible', timeout: timeoutMs });
  const current = await picker.first().evaluate((el) => {
    const s = el as HTMLSelectElement;
    return s.options[s.selectedIndex]?.text ?? '';
  });
  if (current !== name) await picker.first().selectOption({ label: name });
  return poll(`output channel "${name}" to show`, timeoutMs, async () => {
    const selected = await picker.first().evaluate((el) => {
      const s = el as HTMLSelectElement;
      return s.options[s.selectedIndex]?.text ?? '';
    });
    if (selected !== name) return undefined;
    return editorText(panel.locator('.monaco-editor').first());
  });
}

/** The visible quick input (palette, quick pick or input box). */
export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget');
}

/** Labels of the rows a quick pick shows now. */
export async function quickPickItems(page: Page): Promise<string[]> {
  return quickInput(page).locator('.monaco-list-row .label-name').allInnerTexts();
}

/**
 * Clicks the quick pick row whose label is exactly `label` (or matches a RegExp). Long lists are
 * virtualised (only the rows on screen exist), so when a string label is not on screen it is
 * typed into the filter box first.
 */
export async function pickQuickItem(page: Page, label: string | RegExp, timeoutMs: number): Promise<void> {
  const widget = quickInput(page);
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  const match = typeof label === 'string' ? new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) : label;
  const row = widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name').filter({ hasText: match }) });
  try {
    if (typeof label === 'string') {
      try {
        await row.first().waitFor({ state: 'visible', timeout: 3000 });
      } catch {
        await widget.locator('input.input').fill(label);
      }
    }
    await row.first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    throw new Error(`no quick pick item ${String(label)}; it offered: ${JSON.stringify(await quickPickItems(page))}`);
  }
  await row.first().click();
}

/** Types into the visible quick input / input box (replacing its value) and presses Enter. */
export async function submitQuickInput(page: Page, value: string, timeoutMs: number): Promise<void> {
  const input = quickInput(page).locator('input.input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(value);
  await input.press('Enter');
}

/** The modal dialog (e.g. a `showWarningMessage(..., { modal: true })`). */
export function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

/** Waits for a modal dialog and clicks its button labelled exactly `label`; returns the dialog's text. */
export async function clickDialogButton(page: Page, label: string, timeoutMs: number): Promise<string> {
  const box = dialog(page);
  await box.waitFor({ state: 'visible', timeout: timeoutMs });
  const text = await box.innerText();
  const button = box.locator('.monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
  if ((await button.count()) === 0) {
    throw new Error(
      `the dialog has no "${label}" button; it shows: ${JSON.stringify(await box.locator('.monaco-button').allInnerTexts())}`,
    );
  }
  await button.first().click();
  await box.waitFor({ state: 'hidden', timeout: timeoutMs });
  return text;
}

/** The context menu on screen (VS Code renders it inside a shadow root, which locators pierce). */
export function contextMenu(page: Page): Locator {
  return page.locator('.context-view .monaco-menu').first();
}

/**
 * Runs `label` from the context menu that is open, with the keyboard: arrow down until that entry
 * has focus, then Enter. Not with the mouse: VS Code's menu entries attach their mouse-up handler
 * 100 ms after they render (a RunOnceScheduler in the menu item's render(), so the release of the
 * right click that opened the menu selects nothing). On an idle machine Playwright clicks within
 * those 100 ms, the click is lost and the menu stays open; on a loaded one it is slower and works.
 * The keyboard goes through the menu's key handler, which has no such window.
 * Throws, listing the entries, when the menu has no such entry.
 */
export async function runContextMenuEntry(page: Page, label: string, timeoutMs: number): Promise<void> {
  const menu = contextMenu(page);
  await menu.waitFor({ state: 'visible', timeout: timeoutMs });
  const labels = (await menu.locator('.action-item:not(.disabled) .action-label').allInnerTexts())
    .map((s) => s.trim())
    .filter(Boolean);
  if (!labels.includes(label))
    throw new Error(`the context menu has no "${label}" entry; it shows: ${JSON.stringify(labels)}`);
  const focused = menu.locator('.action-item.focused .action-label');
  for (let i = 0; i <= labels.length; i++) {
    await page.keyboard.press('ArrowDown');
    const now = (await focused.allInnerTexts()).map((s) => s.trim());
    if (now[0] === label) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden', timeout: timeoutMs });
      return;
    }
  }
  throw new Error(`"${label}" never took the focus in the context menu ${JSON.stringify(labels)}`);
}

/**
 * Clicks the inline action titled `title` on a tree row (the icon buttons at the row's right end,
 * `group: "inline…"` in package.json). They show on hover or selection, so the row is hovered first.
 */
export async function clickInlineAction(row: Locator, title: string, timeoutMs: number): Promise<void> {
  await row.hover();
  const button = row.locator(`.actions .action-label[aria-label="${title.replace(/"/g, '\\"')}"]`).first();
  await button.waitFor({ state: 'visible', timeout: timeoutMs });
  await button.click();
}

/**
 * Opens the user Settings editor and searches for `query`. VS Code 1.139 shows Settings as a modal
 * that starts with an empty search each time it opens, where 1.100 reopened the tab with the last
 * search: so the query is typed on every open, replacing whatever the box holds.
 */
export async function searchUserSettings(page: Page, query: string, timeoutMs: number): Promise<void> {
  await runCommand(page, 'Preferences: Open User Settings', timeoutMs);
  await page.locator('.settings-editor .suggest-input-container .monaco-editor').first().waitFor({ state: 'visible' });
  await poll('the settings search box to take focus', timeoutMs, async () =>
    (await page.evaluate(() => document.activeElement?.closest('.settings-editor .suggest-input-container') !== null))
      ? true
      : undefined,
  );
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(query);
}

/** Clicks the button labelled exactly `label` on the notification toast whose message matches `message`. */
export async function clickNotificationButton(
  page: Page,
  message: RegExp,
  label: string,
  timeoutMs: number,
): Promise<void> {
  const toast = page
    .locator('.notifications-toasts .notification-toast')
    .filter({ has: page.locator('.notification-list-item-message', { hasText: message }) })
    .first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  const button = toast
    .locator('.monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) })
    .first();
  await button.click({ timeout: timeoutMs });
}
