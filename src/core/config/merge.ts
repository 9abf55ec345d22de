/**
 * Precedence between entries: the same name in two places (the higher scope wins, the lower is
 * reported as shadowed) and the same server under two names (dedupe by content signature).
 */
import { formatJsonPath } from './jsonc.js';
import { SCOPES, type ConfigProblem, type ConfigSource } from './types.js';

/** Anything that has a source and a position in reading order. */
export interface Ranked {
  name: string;
  source: ConfigSource;
  /** Position in reading order (scopes low → high, then folder order, then file order). */
  order: number;
  /** Folder index for workspace/project entries (multi-root: the first folder wins a tie). */
  folderIndex?: number;
}

/** True when `a` takes precedence over `b`. */
export function outranks(a: Ranked, b: Ranked): boolean {
  const sa = SCOPES.indexOf(a.source.scope);
  const sb = SCOPES.indexOf(b.source.scope);
  if (sa !== sb) return sa > sb;
  if (a.folderIndex !== undefined && b.folderIndex !== undefined && a.folderIndex !== b.folderIndex)
    return a.folderIndex < b.folderIndex;
  // Within one scope and folder the later entry is the more specific (e.g. Claude Code's project section).
  return a.order > b.order;
}

function where(s: ConfigSource): string {
  return `${s.file} (${s.scope}${s.folder ? `, folder ${s.folder}` : ''})`;
}

/** Keeps one entry per name; the others become `shadowed` warnings. */
export function shadowByName<T extends Ranked>(items: readonly T[]): { kept: T[]; problems: ConfigProblem[] } {
  const best = new Map<string, T>();
  for (const it of items) {
    const cur = best.get(it.name);
    if (!cur || outranks(it, cur)) best.set(it.name, it);
  }
  const problems: ConfigProblem[] = [];
  const kept: T[] = [];
  for (const it of items) {
    const w = best.get(it.name)!;
    if (w === it) {
      kept.push(it);
      continue;
    }
    problems.push({
      severity: 'warning',
      code: 'shadowed',
      message: `Server "${it.name}" at ${formatJsonPath(it.source.jsonPath)} is not used: "${w.name}" from ${where(w.source)} takes precedence. Rename one of them to use both.`,
      file: it.source.file,
      jsonPath: it.source.jsonPath,
      server: it.name,
      scope: it.source.scope,
    });
  }
  return { kept, problems };
}

/**
 * Drops entries that run the same server (same signature) as a higher-precedence entry from a
 * different file. Two names in one file are kept: the user wrote both on purpose (e.g. the same
 * command with different environments). Disabled entries neither win nor lose.
 */
export function dedupeBySignature<T extends Ranked & { signature: string; disabled: boolean }>(
  items: readonly T[],
): { kept: T[]; problems: ConfigProblem[] } {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    if (it.disabled) continue;
    const g = groups.get(it.signature) ?? [];
    g.push(it);
    groups.set(it.signature, g);
  }
  const dropped = new Map<T, T>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    const winner = g.reduce((a, b) => (outranks(b, a) ? b : a));
    for (const it of g) if (it !== winner && it.source.file !== winner.source.file) dropped.set(it, winner);
  }
  const problems: ConfigProblem[] = [];
  for (const [it, w] of dropped) {
    const what = it.signature.startsWith('url:')
      ? `URL ${it.signature.slice(4)}`
      : `command ${it.signature.replace(/^\w+:/, '')}`;
    problems.push({
      severity: 'warning',
      code: 'duplicate',
      message: `Server "${it.name}" is the same ${what} as "${w.name}" from ${where(w.source)}, which takes precedence, so "${it.name}" is not started twice. Remove one of the two entries if this is not what you want.`,
      file: it.source.file,
      jsonPath: it.source.jsonPath,
      server: it.name,
      scope: it.source.scope,
    });
  }
  return { kept: items.filter((it) => !dropped.has(it)), problems };
}
