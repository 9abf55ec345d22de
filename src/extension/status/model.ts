/**
 * What the status bar item says, computed without `vscode` so it is unit-tested on plain Node.
 */
import type { ServerSnapshot } from '../../core/host-api.js';
import { type ConfigProblem, heldReason } from '../../core/config/index.js';
import { displayKind, escapeMarkdown } from '../tree/model.js';

export interface StatusView {
  /** e.g. `$(plug) 2/3`. */
  text: string;
  /** True when something needs the user: a failed server, one that needs auth, a config error. */
  warning: boolean;
  /** Markdown listing every problem, one per line. */
  tooltip: string;
  problems: string[];
}

/** Servers that are meant to run (disabled and stopped ones do not count against the total). */
function counts(kind: string): boolean {
  return (
    kind !== 'disabled' &&
    kind !== 'stopped' &&
    kind !== 'user-disabled' &&
    kind !== 'manual' &&
    kind !== 'policy' &&
    kind !== 'editor'
  );
}

export function statusView(servers: ServerSnapshot[], configProblems: ConfigProblem[]): StatusView {
  let connected = 0;
  let total = 0;
  const problems: string[] = [];
  let warning = false;
  for (const s of servers) {
    const kind = displayKind(s);
    if (!counts(kind)) continue;
    total++;
    if (kind === 'connected') connected++;
    else if (s.state.kind === 'failed' && !heldReason(s.definition)) {
      warning = true;
      problems.push(`$(error) ${escapeMarkdown(s.name)}: ${escapeMarkdown(s.state.error.message.split('\n')[0])}`);
    } else if (kind === 'needs-auth') {
      warning = true;
      problems.push(`$(key) ${escapeMarkdown(s.name)}: needs authentication`);
    } else if (kind === 'not-approved')
      problems.push(`$(workspace-untrusted) ${escapeMarkdown(s.name)}: waiting for your approval`);
    else if (kind === 'untrusted') problems.push(`$(shield) ${escapeMarkdown(s.name)}: workspace not trusted`);
  }
  for (const p of configProblems) {
    if (p.severity !== 'error') continue;
    warning = true;
    problems.push(`$(warning) ${escapeMarkdown(p.server ?? p.file)}: ${escapeMarkdown(p.message.split('\n')[0])}`);
  }
  const head = `**MCP Host** — ${connected} of ${total} server${total === 1 ? '' : 's'} connected`;
  const tooltip = problems.length ? `${head}\n\n${problems.join('  \n')}` : head;
  return { text: `$(plug) ${connected}/${total}`, warning, tooltip, problems };
}
