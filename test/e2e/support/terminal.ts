// The integrated terminal in e2e tests: open one, wait for its shell, run a line in it once.
// Typing before the shell has printed its prompt loses or delays the keys, and typing again "until
// it works" runs the command twice when the first one was only slow.
import type { VSCode } from '../harness.js';
import { poll } from './workbench.js';

/** Settings that make the terminal's text readable from the page (DOM renderer) and each terminal fresh. */
export const TERMINAL_SETTINGS: Record<string, unknown> = {
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.enablePersistentSessions': false,
};

const ACTIVE = '.terminal-wrapper.active';

/** What the active terminal shows (the DOM renderer: TERMINAL_SETTINGS), rows joined. */
export async function terminalText(vs: VSCode): Promise<string> {
  return (await vs.page.locator(`${ACTIVE} .xterm-rows`).first().innerText()).replace(/\u00a0/g, ' ');
}

/** Waits until the active terminal's text matches `re`; a failure shows what the terminal shows. */
export async function waitForTerminal(vs: VSCode, re: RegExp, what: string, timeoutMs: number): Promise<string> {
  try {
    return await poll(what, timeoutMs, async () => {
      const text = await terminalText(vs);
      return re.test(text) ? text : undefined;
    });
  } catch (err) {
    throw new Error(`${String(err)}; the terminal shows:\n${await terminalText(vs).catch(() => '?')}`);
  }
}

/** Opens a new integrated terminal, gives it the keyboard and waits for its shell's prompt. */
export async function openTerminal(vs: VSCode, timeoutMs: number): Promise<void> {
  await vs.runCommand('Terminal: Create New Terminal');
  const term = vs.page.locator(`${ACTIVE} .xterm`).first();
  await term.waitFor({ state: 'visible', timeout: timeoutMs });
  await term.click();
  await waitForTerminal(vs, /[$#] *$/m, 'the shell prompt', timeoutMs);
}

/**
 * Types `line` into the active terminal and presses Enter once the terminal shows it: keys that
 * land elsewhere (focus taken by a late editor or panel) are seen before the line runs, and only
 * then is the line typed again, over whatever part of it arrived (Ctrl+U). Compared without
 * whitespace: a long line wraps over rows.
 */
export async function runInTerminal(vs: VSCode, line: string, timeoutMs: number): Promise<void> {
  const term = vs.page.locator(`${ACTIVE} .xterm`).first();
  const squash = (s: string): string => s.replace(/\s+/g, '');
  const typed = async (): Promise<boolean> => squash(await terminalText(vs)).endsWith(squash(line));
  await poll(`the terminal to show the typed line ${JSON.stringify(line.slice(0, 60))}`, timeoutMs, async () => {
    if (await typed()) return true;
    await term.click();
    await vs.page.keyboard.press('Control+U');
    await vs.page.keyboard.type(line);
    const shown = await poll('the typed line', 5000, async () => ((await typed()) ? true : undefined)).catch(
      () => false,
    );
    return shown ? true : undefined;
  });
  await vs.page.keyboard.press('Enter');
}
