/** What every config source reader produces: raw entries tagged with where they came from. */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { describeValue, lineColumn, parseConfigText, readConfigFile, type JsonPath } from '../jsonc.js';
import type { ConfigProblem, ConfigSource, Scope, TeamGatewayMark } from '../types.js';

export type { InputDeclaration } from '../../ports.js';
import type { InputDeclaration } from '../../ports.js';

/** One server entry as read from a source, not yet validated or expanded. */
export interface RawEntry {
  name: string;
  /** The entry's value as written. */
  value: unknown;
  source: ConfigSource;
  /** Folder for `${workspaceFolder}` (undefined: the only open folder, if exactly one). */
  workspaceFolder?: string;
  /** Folder that relative `envFile` and `cwd` resolve against. */
  baseDir: string;
  /** Declared inputs of the file; undefined when the format has no `inputs`. */
  inputs?: ReadonlyMap<string, InputDeclaration>;
  /** File text, to give problems a line and column. */
  text?: string;
  /** Set by the dynamic scope: an in-process server needs no validation. */
  inProcess?: boolean;
  /** The file's top-level `sandbox` (VS Code's shape), as written; load.ts checks and merges it. */
  fileSandbox?: unknown;
  /** Made from a `teamGateway` setting (team-gateway.ts), not an entry of `mcpServers`. */
  teamGateway?: TeamGatewayMark;
}

export interface SourceResult {
  entries: RawEntry[];
  problems: ConfigProblem[];
  /** Files read or looked for (watch them even when missing: creating one adds servers). */
  files: string[];
}

export const emptyResult = (): SourceResult => ({ entries: [], problems: [], files: [] });

/** Context every entry of one file shares. */
export interface FileContext {
  file: string;
  scope: Scope;
  folder?: string;
  workspaceFolder?: string;
  baseDir: string;
  text?: string;
  inputs?: ReadonlyMap<string, InputDeclaration>;
}

/** Turns `{ name: entry }` at `path` of a parsed document into raw entries (a missing key is no servers). */
export function entriesAt(
  doc: Record<string, unknown>,
  path: JsonPath,
  ctx: FileContext,
  problems: ConfigProblem[],
): RawEntry[] {
  let servers: unknown = doc;
  for (const p of path)
    servers = servers && typeof servers === 'object' ? (servers as Record<string | number, unknown>)[p] : undefined;
  if (servers === undefined) return [];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    problems.push({
      severity: 'error',
      code: 'schema',
      message: `"${path.join('.') || 'the file'}" must be an object of servers keyed by name ({ "my-server": { "command": "..." } }), but it is ${describeValue(servers)}.`,
      file: ctx.file,
      jsonPath: path,
      scope: ctx.scope,
    });
    return [];
  }
  if (ctx.text !== undefined) problems.push(...duplicateKeys(ctx.text, path, ctx));
  return Object.entries(servers as Record<string, unknown>).flatMap(([name, value]): RawEntry[] => {
    if (name.trim() === '') {
      problems.push({
        severity: 'error',
        code: 'schema',
        message: "A server has an empty name. Give it a name (it becomes part of its tools' names).",
        file: ctx.file,
        jsonPath: [...path, name],
        scope: ctx.scope,
      });
      return [];
    }
    return [
      {
        name,
        value,
        source: {
          scope: ctx.scope,
          file: ctx.file,
          jsonPath: [...path, name],
          ...(ctx.folder !== undefined ? { folder: ctx.folder } : {}),
        },
        workspaceFolder: ctx.workspaceFolder,
        baseDir: ctx.baseDir,
        inputs: ctx.inputs,
        text: ctx.text,
        ...(path.length > 0 && doc.sandbox !== undefined ? { fileSandbox: doc.sandbox } : {}),
      },
    ];
  });
}

/** JSON parsers keep the last of two equal keys; a copy-pasted entry silently replacing another deserves a warning. */
function duplicateKeys(text: string, path: JsonPath, ctx: FileContext): ConfigProblem[] {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const obj = root && findNodeAtLocation(root, path);
  if (!obj || obj.type !== 'object') return [];
  const seen = new Map<string, number>();
  const out: ConfigProblem[] = [];
  for (const prop of obj.children ?? []) {
    const key = prop.children?.[0]?.value as string;
    const prev = seen.get(key);
    if (prev !== undefined) {
      const first = lineColumn(text, prev);
      const { line, column } = lineColumn(text, prop.offset);
      out.push({
        severity: 'warning',
        code: 'duplicate-name',
        message: `Server "${key}" is defined twice in this file (lines ${first.line} and ${line}); only the one on line ${line} is used. Rename or remove one of them.`,
        file: ctx.file,
        jsonPath: [...path, key],
        server: key,
        scope: ctx.scope,
        line,
        column,
      });
    }
    seen.set(key, prop.offset);
  }
  return out;
}

/** Reads and parses a file; the document is undefined when missing or broken (problems say which). */
export async function readDocument(
  file: string,
  scope: Scope,
  jsonc: boolean,
): Promise<{ doc?: Record<string, unknown>; text?: string; problems: ConfigProblem[]; missing: boolean }> {
  const r = await readConfigFile(file, scope);
  if (r.kind === 'missing') return { problems: [], missing: true };
  if (r.kind === 'error') return { problems: [r.problem], missing: false };
  const parsed = parseConfigText(r.text, file, { jsonc, scope });
  return {
    doc: parsed.value as Record<string, unknown> | undefined,
    text: r.text,
    problems: parsed.problems,
    missing: false,
  };
}
