/**
 * What reaches the terminal. Server names, commands, URLs, error texts and tool output come from
 * a repository's config or from a server, so every character that can drive a terminal (ESC, OSC,
 * BEL, other C0/C1 controls) or reorder a line (bidi controls) is shown as a `\uXXXX` escape, and
 * every line on stderr is redacted, including the values this run knows to be secret.
 */
import { isSecretKey, redactKnownValues, redactString, secretValuesOf } from '../core/redact.js';
import type { ServerDefinition } from '../core/config/index.js';
import type { Io } from './io.js';
import { processTerminal } from './process-terminal.js';

// Tab and newline stay (tables, multi-line output); CR only as part of CRLF (a lone CR overwrites a line).
const TERMINAL_UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|\r(?!\n)/g;

const escapeUnit = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with terminal control and bidi characters as `\uXXXX` (valid inside JSON strings too). */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, escapeUnit);
}

/** One table cell or name: like terminalSafe, and line breaks and tabs escaped too. */
export function cell(text: string): string {
  return terminalSafe(text).replace(/[\t\n\r]/g, escapeUnit);
}

/**
 * Values this run knows to be secret: the environment's `*TOKEN*`/`*KEY*`/`*PASSWORD*`… variables
 * (they end up in args through `${env:…}`), and every server's env and header values.
 */
export function knownSecrets(env: Record<string, string | undefined>, defs: readonly ServerDefinition[]): string[] {
  const values: string[] = [];
  for (const [k, v] of Object.entries(env)) if (v && isSecretKey(k)) values.push(v);
  for (const d of defs) values.push(...secretValuesOf(d.config));
  return values;
}

/** redactString after every known secret value is replaced wherever it appears. */
export function redactWith(secrets: readonly string[]): (text: string) => string {
  return (text) => redactString(redactKnownValues(text, secrets));
}

export type SafeIo = Io & { learn(secrets: readonly string[]): void; terminal: NonNullable<Io['terminal']> };

/**
 * An Io whose output is terminal-safe, stderr also redacted; `learn` adds known secrets later.
 * Its terminal's prompts pass the same redaction: they are written to stderr too (server text).
 */
export function safeIo(io: Io): SafeIo {
  let redact = redactWith([]);
  // The caller's terminal (a test's, for runCli in its process); the process's when there is none.
  const terminal = io.terminal ?? processTerminal();
  return {
    env: io.env,
    cwd: io.cwd,
    terminal: {
      interactive: terminal.interactive,
      question: (prompt, signal) => terminal.question(terminalSafe(redact(prompt)), signal),
    },
    stdout: (s) => io.stdout(terminalSafe(s)),
    stderr: (s) => io.stderr(terminalSafe(redact(s))),
    learn(secrets) {
      redact = redactWith(secrets);
    },
  };
}
