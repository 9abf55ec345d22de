/**
 * Variable expansion in server entries: `${VAR}`, `${VAR:-default}`, `${env:VAR}`,
 * `${workspaceFolder}`, `${workspaceFolder:name}`, `${userHome}` and `${input:id}`.
 * Expansion runs in two phases so inputs (which may prompt the user) are only resolved for
 * servers that will actually start: phase 1 leaves `${input:…}` as written.
 * An unresolved variable is reported, never replaced by an empty string.
 */
import { basename } from 'node:path';
import type { JsonPath } from './jsonc.js';
import type { RemoteServerConfig, StdioServerConfig } from './types.js';

export interface VariableContext {
  env: Record<string, string | undefined>;
  /** Folder of the file the entry came from (or the single open folder for user-level files). */
  workspaceFolder?: string;
  /** All open folders, for `${workspaceFolder:name}`. */
  folders: string[];
  userHome: string;
}

export interface UnresolvedVariable {
  /** As written, e.g. "${GITHUB_TOKEN}". */
  variable: string;
  /** Path of the string inside the entry, e.g. ["env", "TOKEN"]. */
  path: JsonPath;
  /** Why, phrased to finish "… because …". */
  reason: string;
}

const VAR_RE = /\$\{([^{}]*)\}/g;
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Lookup = { value: string } | { input: string } | { error: string };

function lookup(expr: string, ctx: VariableContext): Lookup {
  if (expr.startsWith('input:')) {
    const id = expr.slice(6).trim();
    return id ? { input: id } : { error: 'it names no input id' };
  }
  if (expr === 'userHome') return { value: ctx.userHome };
  if (expr === 'workspaceFolder' || expr === 'workspaceRoot') {
    if (ctx.workspaceFolder) return { value: ctx.workspaceFolder };
    return {
      error: ctx.folders.length > 1 ? 'several folders are open; use ${workspaceFolder:<name>}' : 'no folder is open',
    };
  }
  if (expr === 'workspaceFolderBasename') {
    return ctx.workspaceFolder ? { value: basename(ctx.workspaceFolder) } : { error: 'no folder is open' };
  }
  if (expr.startsWith('workspaceFolder:')) {
    const name = expr.slice('workspaceFolder:'.length);
    const f = ctx.folders.find((d) => basename(d) === name);
    return f ? { value: f } : { error: `no open folder is named "${name}"` };
  }
  const envExpr = expr.startsWith('env:') ? expr.slice(4) : expr;
  const sep = envExpr.indexOf(':-');
  const name = sep === -1 ? envExpr : envExpr.slice(0, sep);
  if (!NAME_RE.test(name)) {
    return {
      error:
        'it is not a supported variable (use ${VAR}, ${VAR:-default}, ${env:VAR}, ${workspaceFolder}, ${userHome} or ${input:id})',
    };
  }
  const v = ctx.env[name];
  if (sep !== -1) return { value: v === undefined || v === '' ? envExpr.slice(sep + 2) : v };
  if (v === undefined)
    return { error: `the environment variable ${name} is not set (set it, or write \${${name}:-default})` };
  return { value: v };
}

/**
 * Expands one string. Phase 1 (`inputs` undefined) expands everything but `${input:id}`, which
 * stays as written; phase 2 (a map of input values) replaces only `${input:id}`.
 */
export function expandString(
  s: string,
  ctx: VariableContext,
  path: JsonPath,
  inputs?: ReadonlyMap<string, string>,
): { value: string; unresolved: UnresolvedVariable[] } {
  const unresolved: UnresolvedVariable[] = [];
  const value = s.replace(VAR_RE, (whole, expr: string) => {
    // Phase 2 touches inputs only: text produced by phase 1 (an env value containing "${X}") is final.
    if (inputs && !expr.trim().startsWith('input:')) return whole;
    const r = lookup(expr.trim(), ctx);
    if ('value' in r) return r.value;
    if ('input' in r) {
      if (!inputs) return whole;
      const v = inputs.get(r.input);
      if (v !== undefined) return v;
      unresolved.push({ variable: whole, path, reason: `no value was given for input "${r.input}"` });
      return whole;
    }
    unresolved.push({ variable: whole, path, reason: r.error });
    return whole;
  });
  return { value, unresolved };
}

/** Ids of every `${input:id}` in the string. */
export function inputIdsIn(s: string): string[] {
  const ids: string[] = [];
  for (const m of s.matchAll(VAR_RE)) {
    const expr = m[1].trim();
    if (expr.startsWith('input:') && expr.length > 6) ids.push(expr.slice(6).trim());
  }
  return ids;
}

type FileConfig = StdioServerConfig | RemoteServerConfig;

/** Every expandable string of a config with its path: command, args, env, cwd, envFile, url, headers. */
export function expandableStrings(config: FileConfig): { path: JsonPath; value: string }[] {
  const out: { path: JsonPath; value: string }[] = [];
  if (config.type === 'stdio') {
    out.push({ path: ['command'], value: config.command });
    config.args.forEach((a, i) => out.push({ path: ['args', i], value: a }));
    for (const [k, v] of Object.entries(config.env ?? {})) out.push({ path: ['env', k], value: v });
    if (config.cwd !== undefined) out.push({ path: ['cwd'], value: config.cwd });
    if (config.envFile !== undefined) out.push({ path: ['envFile'], value: config.envFile });
  } else {
    out.push({ path: ['url'], value: config.url });
    for (const [k, v] of Object.entries(config.headers ?? {})) out.push({ path: ['headers', k], value: v });
    if (config.headersHelper !== undefined) out.push({ path: ['headersHelper'], value: config.headersHelper });
  }
  return out;
}

/** Expands every expandable string of a config (see expandString for the two phases). */
export function expandConfig<T extends FileConfig>(
  config: T,
  ctx: VariableContext,
  inputs?: ReadonlyMap<string, string>,
): { config: T; unresolved: UnresolvedVariable[] } {
  const unresolved: UnresolvedVariable[] = [];
  const ex = (v: string, path: JsonPath): string => {
    const r = expandString(v, ctx, path, inputs);
    unresolved.push(...r.unresolved);
    return r.value;
  };
  const mapValues = (m: Record<string, string> | undefined, key: string) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, ex(v, [key, k])]));
  if (config.type === 'stdio') {
    const c = config as StdioServerConfig;
    const out: StdioServerConfig = {
      ...c,
      command: ex(c.command, ['command']),
      args: c.args.map((a, i) => ex(a, ['args', i])),
    };
    if (c.env) out.env = mapValues(c.env, 'env');
    if (c.cwd !== undefined) out.cwd = ex(c.cwd, ['cwd']);
    if (c.envFile !== undefined) out.envFile = ex(c.envFile, ['envFile']);
    return { config: out as T, unresolved };
  }
  const c = config as RemoteServerConfig;
  const out: RemoteServerConfig = { ...c, url: ex(c.url, ['url']) };
  if (c.headers) out.headers = mapValues(c.headers, 'headers');
  if (c.headersHelper !== undefined) out.headersHelper = ex(c.headersHelper, ['headersHelper']);
  return { config: out as T, unresolved };
}

/** Input ids a config still refers to (after phase 1). */
export function inputIdsOf(config: FileConfig): string[] {
  return [...new Set(expandableStrings(config).flatMap((s) => inputIdsIn(s.value)))];
}
