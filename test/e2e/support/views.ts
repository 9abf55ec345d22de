// Reading what MCP Host shows in e2e tests: its tree rows and its per-server logs.
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
