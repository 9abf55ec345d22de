/**
 * Keeps the servers of a file that turned unreadable (or of an entry that turned invalid) until
 * the file is fixed: one rule for the editor, every CLI command and `serve` (server-registry.ts).
 */
import type { ConfigProblem, LoadedConfig, ServerDefinition } from './types.js';

/** A problem that makes the whole file unreadable (as opposed to one bad entry). */
export function isFileLevel(p: ConfigProblem): boolean {
  return p.severity === 'error' && (p.code === 'invalid-json' || p.jsonPath.length === 0);
}

/**
 * When a file turns unreadable, or one of its entries turns invalid, the servers it defined
 * last time keep running (the tree shows the problem next to them) instead of being stopped by a
 * half-typed edit.
 */
export function keepLastGood(previous: readonly ServerDefinition[], loaded: LoadedConfig): ServerDefinition[] {
  const brokenFiles = new Set(loaded.problems.filter(isFileLevel).map((p) => p.file));
  const brokenEntries = new Set(
    loaded.problems
      .filter((p) => p.severity === 'error' && p.server !== undefined && p.code !== 'policy-denied')
      .map((p) => `${p.file}\u0000${p.server}`),
  );
  const present = new Set(loaded.servers.map((d) => d.name));
  const kept = previous.filter(
    (d) =>
      !present.has(d.name) &&
      d.source.scope !== 'dynamic' &&
      (brokenFiles.has(d.source.file) || brokenEntries.has(`${d.source.file}\u0000${d.name}`)),
  );
  return kept.length ? [...loaded.servers, ...kept] : loaded.servers;
}
