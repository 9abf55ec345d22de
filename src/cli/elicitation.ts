/**
 * The CLI's faces of the client features: roots (its workspace folder), elicitation in the
 * terminal, and server log messages printed with `--verbose`.
 *
 * Elicitation: with a terminal on stdin, a form's fields are asked one by one (the same form plan
 * and parsing as the editor's input boxes); a URL request prints the URL and asks before saying
 * yes (the CLI never opens it itself). Without a terminal (CI, pipes) every request is declined
 * and stderr says why, so a server never waits on an answer nobody can give.
 */
import { pathToFileURL } from 'node:url';
import type { ElicitationPort, RootsPort } from '../core/host-api.js';
import { formatLogMessage, type ServerLogMessage } from '../core/features/index.js';
import { fieldPrompt, initialText, parseFieldInput, planForm, urlTarget } from '../core/calls/index.js';
import { basename } from 'node:path';
import { terminalSafe } from './output.js';

import type { Terminal } from './io.js';

export type { Terminal } from './io.js';

export function cliRoots(workspace: string): RootsPort {
  return {
    roots: () => [{ uri: pathToFileURL(workspace).href, name: basename(workspace) }],
    onDidChange: () => ({ dispose() {} }),
  };
}

async function yes(t: Terminal, prompt: string, signal?: AbortSignal): Promise<boolean> {
  const a = await t.question(prompt, signal);
  return /^\s*y(es)?\s*$/i.test(a ?? '');
}

/**
 * Everything here is server text (message, field titles, enum labels, the URL), so it goes through
 * the same terminal-safety filter as the rest of the CLI's output: an OSC 8 link or an OSC 52
 * clipboard write in a message must reach the terminal as visible `\u001b` text.
 */
function safeTerminal(t: Terminal, write: (s: string) => void): Terminal & { write(s: string): void } {
  return {
    interactive: t.interactive,
    question: (prompt, signal) => t.question(terminalSafe(prompt), signal),
    write: (s) => write(terminalSafe(s)),
  };
}

/**
 * `write` is where the notes around the questions go: the CLI's stderr, which redacts (output.ts
 * `safeIo`), as the terminal it is given asks its questions through the same redaction.
 */
export function terminalElicitation(raw: Terminal, write: (s: string) => void): ElicitationPort {
  const t = safeTerminal(raw, write);
  return {
    async elicit(server, req, signal) {
      if (!t.interactive) {
        t.write(`mcp-host: ${server} asked for input ("${req.message}"); declined because stdin is not a terminal.\n`);
        return { action: 'decline' };
      }
      if (req.mode === 'url') {
        const target = urlTarget(req.url);
        if (!target.ok) {
          t.write(`mcp-host: ${server} asked to open a URL; declined because ${target.reason}.\n`);
          return { action: 'decline' };
        }
        // The parsed form: what a browser goes to, whatever the raw string's tricks.
        t.write(`\n${server} asks you to open a page on ${target.host}:\n  ${req.message}\n  ${target.href}\n`);
        return (await yes(t, 'Open it yourself and continue? [y/N] ', signal))
          ? { action: 'accept' }
          : { action: 'decline' };
      }
      t.write(`\n${server} asks: ${req.message}\n`);
      const plan = planForm(req.requestedSchema);
      const content: Record<string, unknown> = {};
      for (const f of plan.fields) {
        const numbered =
          f.kind === 'enum' && f.options ? f.options.map((o, i) => `    ${i + 1}) ${o.label}`).join('\n') + '\n' : '';
        if (numbered) t.write(numbered);
        const initial = initialText(f);
        for (;;) {
          const text = await t.question(`  ${fieldPrompt(f)}${initial ? ` [${initial}]` : ''}: `, signal);
          if (text === undefined) return { action: 'cancel' };
          const typed = text === '' && initial ? initial : text;
          const n = Number(typed.trim());
          const chosen =
            numbered && Number.isInteger(n) && n >= 1 && n <= f.options!.length
              ? { answer: { value: f.options![n - 1]!.value } }
              : parseFieldInput(f, typed);
          if ('error' in chosen) {
            t.write(`  ${chosen.error}\n`);
            continue;
          }
          if (!chosen.answer.skip) content[f.name] = chosen.answer.value;
          break;
        }
      }
      return (await yes(t, `Send this to ${server}? [y/N] `, signal))
        ? { action: 'accept', content }
        : { action: 'decline' };
    },
  };
}

/** `--verbose`: a server's log messages on stderr, `[server] level [logger] text`. */
export function printServerLog(write: (s: string) => void): (server: string, m: ServerLogMessage) => void {
  return (server, m) => write(`[${server}] ${m.level} ${formatLogMessage({ ...m, level: 'info' })}\n`);
}
