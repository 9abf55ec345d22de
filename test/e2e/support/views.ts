// Reading what MCP Host shows in e2e tests: its tree rows and its per-server logs.
import type { Locator } from 'playwright-core';
import type { VSCode } from '../harness.js';
import { poll } from './workbench.js';

/** The full text of the first tree row matching `row` (its aria-label carries state and counts). */
export async function rowText(vs: VSCode, row: RegExp, timeoutMs = 120_000): Promise<string> {
  const r = await vs.waitForTreeItem(row, timeoutMs);
  return (await r.getAttribute('aria-label')) ?? (await r.innerText());
}

/** Waits until the log of `server` matches `pattern`; returns the log's text. */
export function serverLog(vs: VSCode, server: string, pattern: RegExp, timeoutMs: number): Promise<string> {
  return poll(`the log of server ${server} to match ${String(pattern)}`, timeoutMs, async () => {
    // VS Code drops ':' from a log channel's file name ("MCP Host: x" → "MCP Host x.log").
    const text = vs.readLogFile(`MCP Host: ${server}`) ?? vs.readLogFile(`MCP Host ${server}`);
    return text !== undefined && pattern.test(text) ? text : undefined;
  });
}

/**
 * The text of `server`'s row once it shows its live lists (`counts`, e.g. /\d+ tools/): a row that
 * still shows the last run's lists ("connecting · cached: …") does not count, so after a reload this
 * waits for the reconnect, not for the list cache.
 */
export function liveRowText(vs: VSCode, server: string, counts: RegExp, timeoutMs = 120_000): Promise<string> {
  return rowText(vs, new RegExp(`${server}(?!.*cached).*${counts.source}`), timeoutMs);
}

/**
 * Watches for `what` (a dialog, the quick input) to show, from now until `stop`: a check of "no
 * prompt" over a window that ends at an event (the server connected and listed), not a glance.
 * `stop` resolves with the text of what showed, if anything did.
 */
export function watchFor(target: Locator, windowMs = 600_000): { stop(): Promise<string | undefined> } {
  let stopped = false;
  let shown: string | undefined;
  const first = target.first();
  // Playwright waits in the page itself (it sees a prompt that shows and goes between two reads);
  // the wait outlives `stop` until its timeout or the page's end, and then does nothing.
  void first.waitFor({ state: 'visible', timeout: windowMs }).then(
    async () => {
      if (stopped) return;
      shown = '(shown)';
      shown = (await first.innerText().catch(() => '')) || shown;
    },
    () => undefined,
  );
  return {
    async stop() {
      const now = (await first.isVisible()) ? (await first.innerText().catch(() => '')) || '(shown)' : undefined;
      stopped = true;
      return shown ?? now;
    },
  };
}
