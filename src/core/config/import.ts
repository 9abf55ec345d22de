/**
 * Import of servers other apps configured (Claude Desktop, Claude Code, Cursor, Windsurf) into
 * one of our files. Entries are copied as the other app wrote them; a name that the target file
 * already has is a clash and is left alone, and literal secrets are never copied into a file
 * that is shared with a team.
 */
import { discoveryFile, readDiscovered, type DiscoveryOptions, type DiscoverySource } from './sources/discovery.js';
import { validateServerEntry } from './schema.js';
import type { ConfigProblem } from './types.js';
import { referenceSecretsInArgs, referenceSecretsInUrl } from '../secret-references.js';

export interface ImportCandidate {
  name: string;
  entry: Record<string, unknown>;
  /** Why it cannot be imported as it is (invalid entry). */
  invalid?: string;
}

export interface ImportSourceResult {
  file: string;
  candidates: ImportCandidate[];
  problems: ConfigProblem[];
}

/** Reads one app's servers (its user file; Claude Code also the given folders' project sections). */
export async function readImportSource(
  source: DiscoverySource,
  folders: string[],
  o: DiscoveryOptions,
): Promise<ImportSourceResult> {
  const r = await readDiscovered([source], folders, o);
  const seen = new Map<string, ImportCandidate>();
  for (const e of r.entries) {
    const v = validateServerEntry(e.value, {
      file: e.source.file,
      jsonPath: e.source.jsonPath,
      name: e.name,
      scope: 'discovered',
    });
    const entry =
      e.value && typeof e.value === 'object' && !Array.isArray(e.value) ? (e.value as Record<string, unknown>) : {};
    // A later (more specific) entry of the same name wins, as it does when the app reads it.
    seen.set(e.name, { name: e.name, entry, ...(v.ok ? {} : { invalid: v.problems.map((p) => p.message).join(' ') }) });
  }
  return { file: discoveryFile(source, o), candidates: [...seen.values()], problems: r.problems };
}

/**
 * Env or header values written out literally (no `${…}`): likely secrets; and credentials in
 * arguments and the URL, found as redaction finds them (`--api-key sk-…`, `?api_key=…`,
 * `user:pass@host`, an `Authorization: Bearer …` argument).
 */
export function literalSecrets(entry: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))
    out.push(...new Set(referenceSecretsInArgs(entry.args as string[]).found.map((f) => f.where)));
  if (typeof entry.url === 'string' && referenceSecretsInUrl(entry.url).found.length) out.push('URL');
  for (const key of ['env', 'headers'] as const) {
    const obj = entry[key];
    if (!obj || typeof obj !== 'object') continue;
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
      if (typeof v === 'string' && v !== '' && !v.includes('${')) out.push(`${key === 'env' ? 'env' : 'header'} ${k}`);
    }
  }
  return out;
}

export interface ImportDecision {
  name: string;
  entry: Record<string, unknown>;
  action: 'import' | 'clash' | 'invalid' | 'secret';
  reason?: string;
}

/**
 * What to do with each candidate: names already in the target file clash (the existing entry is
 * kept); invalid entries are skipped; entries with literal env/header values are not copied into
 * a shared file (`shared`: `.mcp.json` or `.vscode/mcp.json`).
 */
export function planImport(
  candidates: readonly ImportCandidate[],
  existing: ReadonlySet<string>,
  shared: boolean,
): ImportDecision[] {
  return candidates.map((c) => {
    if (existing.has(c.name))
      return {
        name: c.name,
        entry: c.entry,
        action: 'clash',
        reason: 'a server with this name is already in the target file; it was kept',
      };
    if (c.invalid) return { name: c.name, entry: c.entry, action: 'invalid', reason: c.invalid };
    const secrets = shared ? literalSecrets(c.entry) : [];
    if (secrets.length)
      return {
        name: c.name,
        entry: c.entry,
        action: 'secret',
        reason: `it has literal values (${secrets.join(', ')}) that would be shared with everyone who reads the file; import it into your user settings instead, or replace them with \${NAME} references first`,
      };
    return { name: c.name, entry: c.entry, action: 'import' };
  });
}
