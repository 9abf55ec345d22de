/**
 * Two stages of one entry. `prepareEntry` (load stage) expands `${VAR}`-style variables and makes
 * `cwd`/`envFile` absolute, reading nothing. `resolveDefinition` (after admission, for admitted
 * servers only) reads the `envFile`, asks for `${input:}` values and checks the URL: nothing an
 * entry points at is opened, and nobody is asked for a secret, before the server is admitted.
 * Any failure excludes only this server.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { InputResolver } from '../ports.js';
import { parseEnvFile } from './env-file.js';
import { readBoundedFile } from './read-bounded.js';
import { formatJsonPath, type JsonPath } from './jsonc.js';
import { policyAdmission, runs } from './admit.js';
import type { Policy } from './policy.js';
import { checkRemoteUrl } from './schema.js';
import { signatureOf, stableHash } from './signature.js';
import type { RawEntry } from './sources/entry.js';
import type { ConfigProblem, RemoteServerConfig, ServerDefinition, StdioServerConfig } from './types.js';
import {
  expandableStrings,
  expandConfig,
  inputIdsIn,
  inputIdsOf,
  type UnresolvedVariable,
  type VariableContext,
} from './variables.js';

/** A dotenv file is a few lines; anything bigger is a mistake or an attack. */
export const MAX_ENV_FILE_BYTES = 1024 * 1024;

type FileConfig = StdioServerConfig | RemoteServerConfig;

export interface PrepareContext {
  vars: Omit<VariableContext, 'workspaceFolder'>;
  /** The only open folder, for entries not tied to one. */
  onlyFolder?: string;
}

export interface ResolveContext extends PrepareContext {
  policy?: Policy;
  inputs?: InputResolver;
  /** Input values already given during this load, by file + id (ask once per file). */
  inputCache: Map<string, string | undefined>;
  /** Env files read, for watching. */
  envFiles: Set<string>;
}

export type ResolveResult = { def?: ServerDefinition; problems: ConfigProblem[] };

function varsOf(raw: RawEntry, ctx: PrepareContext): VariableContext {
  return { ...ctx.vars, workspaceFolder: raw.workspaceFolder ?? ctx.onlyFolder };
}

function entryProblem(raw: RawEntry, code: string, message: string, sub: JsonPath = []): ConfigProblem {
  return {
    severity: 'error',
    code,
    message,
    file: raw.source.file,
    jsonPath: [...raw.source.jsonPath, ...sub],
    server: raw.name,
    scope: raw.source.scope,
  };
}

function unresolvedProblems(raw: RawEntry, list: UnresolvedVariable[]): ConfigProblem[] {
  return list.map((u) =>
    entryProblem(
      raw,
      'unresolved-variable',
      `Server "${raw.name}": ${u.variable} in "${formatJsonPath(u.path)}" cannot be resolved: ${u.reason}. The server is not started until it can be.`,
      u.path,
    ),
  );
}

function identityHasInputs(c: FileConfig): boolean {
  const parts = c.type === 'stdio' ? [c.command, ...c.args] : [c.url];
  return parts.some((p) => inputIdsIn(p).length > 0);
}

async function applyEnvFile(
  raw: RawEntry,
  c: StdioServerConfig,
  ctx: ResolveContext,
): Promise<{ config?: StdioServerConfig; problems: ConfigProblem[] }> {
  if (c.envFile === undefined) return { config: c, problems: [] };
  const path = c.envFile;
  ctx.envFiles.add(path);
  // Bounded, regular files only: a repository can point envFile at /dev/zero or a FIFO.
  const read = await readBoundedFile(path, MAX_ENV_FILE_BYTES);
  if (read.kind !== 'text') {
    const why = read.kind === 'missing' ? 'ENOENT' : read.message;
    return {
      problems: [
        entryProblem(
          raw,
          'env-file',
          `Server "${raw.name}": the envFile ${path} cannot be read (${why}). Create it or fix the path; relative paths start at ${raw.baseDir}.`,
          ['envFile'],
        ),
      ],
    };
  }
  const text = read.text;
  const parsed = parseEnvFile(text);
  const problems = parsed.badLines.length
    ? [
        {
          ...entryProblem(
            raw,
            'env-file',
            `Server "${raw.name}": ${parsed.badLines.length === 1 ? 'line' : 'lines'} ${parsed.badLines.join(', ')} of ${path} ${parsed.badLines.length === 1 ? 'is' : 'are'} not KEY=VALUE and ${parsed.badLines.length === 1 ? 'was' : 'were'} skipped.`,
            ['envFile'],
          ),
          severity: 'warning' as const,
        },
      ]
    : [];
  // Values written in the entry's own "env" win over the file's.
  return { config: { ...c, env: { ...parsed.values, ...(c.env ?? {}) } }, problems };
}

async function resolveInputs(
  raw: RawEntry,
  c: FileConfig,
  ctx: ResolveContext,
): Promise<{ values: Map<string, string>; unresolved: UnresolvedVariable[] }> {
  const values = new Map<string, string>();
  const unresolved: UnresolvedVariable[] = [];
  for (const id of inputIdsOf(c)) {
    const decl = raw.inputs?.get(id);
    // Point the problem at the first string that uses the input.
    const path = expandableStrings(c).find((s) => inputIdsIn(s.value).includes(id))?.path ?? [];
    if (raw.inputs && !decl) {
      unresolved.push({
        variable: `\${input:${id}}`,
        path,
        reason: `input "${id}" is not declared; add { "id": "${id}", "type": "promptString", "description": "..." } to "inputs" of this file`,
      });
      continue;
    }
    const key = `${raw.source.file}\0${id}`;
    if (!ctx.inputCache.has(key)) {
      let v: string | undefined;
      try {
        v = ctx.inputs
          ? await ctx.inputs.resolve(id, {
              file: raw.source.file,
              ...(decl?.description !== undefined ? { description: decl.description } : {}),
              ...(decl?.password ? { password: true } : {}),
              ...(decl ? { declaration: decl } : {}),
            })
          : undefined;
      } catch {
        v = undefined;
      }
      ctx.inputCache.set(key, v);
    }
    const v = ctx.inputCache.get(key);
    if (v === undefined) {
      unresolved.push({
        variable: `\${input:${id}}`,
        path,
        reason: ctx.inputs
          ? `no value was given for input "${id}"`
          : `input "${id}" cannot be asked for here (no input prompt is available)`,
      });
    } else values.set(id, v);
  }
  return { values, unresolved };
}

/** Load stage: expands variables other than `${input:}` and makes paths absolute. Reads no file. */
export function prepareEntry(raw: RawEntry, config: FileConfig, ctx: PrepareContext): ResolveResult {
  const disabled = config.disabled === true;
  const p1 = expandConfig(config, varsOf(raw, ctx));
  // A disabled entry never runs: its variables may stay unresolved without bothering anyone.
  if (p1.unresolved.length && !disabled) return { problems: unresolvedProblems(raw, p1.unresolved) };
  let c: FileConfig = p1.config;
  if (c.type === 'stdio' && !disabled) {
    if (c.cwd !== undefined && !isAbsolute(c.cwd)) c = { ...c, cwd: resolvePath(raw.baseDir, c.cwd) };
    if (c.envFile !== undefined && !isAbsolute(c.envFile)) c = { ...c, envFile: resolvePath(raw.baseDir, c.envFile) };
  }
  // What a user approves: the definition as written (inputs unresolved, the env file by path).
  const approvalHash = stableHash(c);
  return {
    def: {
      name: raw.name,
      config: c,
      source: raw.source,
      signature: signatureOf(c),
      hash: approvalHash,
      approvalHash,
      ...(raw.teamGateway ? { teamGateway: raw.teamGateway } : {}),
    },
    problems: [],
  };
}

/**
 * Resolve stage, for one admitted definition: env file, `${input:}` values (may prompt), policy
 * again when an input changed what would run, URL check. A held definition comes back untouched.
 */
export async function resolveDefinition(
  def: ServerDefinition,
  raw: RawEntry,
  ctx: ResolveContext,
): Promise<ResolveResult> {
  if (!runs(def) || def.config.type === 'inprocess') return { def, problems: [] };
  const problems: ConfigProblem[] = [];
  let c: FileConfig = def.config;
  if (c.type === 'stdio') {
    const r = await applyEnvFile(raw, c, ctx);
    problems.push(...r.problems);
    if (!r.config) return { problems };
    c = r.config;
  }
  const identityHadInputs = identityHasInputs(c);
  const inp = await resolveInputs(raw, c, ctx);
  if (inp.unresolved.length) return { problems: [...problems, ...unresolvedProblems(raw, inp.unresolved)] };
  if (inp.values.size) {
    const p2 = expandConfig(c, varsOf(raw, ctx), inp.values);
    if (p2.unresolved.length) return { problems: [...problems, ...unresolvedProblems(raw, p2.unresolved)] };
    c = p2.config;
  }
  if (identityHadInputs) {
    const denied = policyAdmission(def.name, c, ctx.policy);
    if (denied) return { def: { ...def, admission: denied }, problems };
  }
  if (c.type !== 'stdio') {
    const bad = checkRemoteUrl(c.type, c.url);
    if (bad) return { problems: [...problems, entryProblem(raw, 'schema', `Server "${raw.name}": ${bad}`, ['url'])] };
  }
  return { def: { ...def, config: c, signature: signatureOf(c), hash: stableHash(c) }, problems };
}
