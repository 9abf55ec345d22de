/**
 * The one schema for a server entry, shared by every config source. zod checks the shape; this
 * file turns its issues into messages a person can act on and normalises the entry into a
 * `ServerConfig` whose strings are still unexpanded (variables are expanded later, per source).
 */
import type * as z from 'zod/v4';
import { describeValue, formatJsonPath, type JsonPath } from './jsonc.js';
import type { ConfigProblem, RemoteServerConfig, StdioServerConfig } from './types.js';
import { serverEntrySchema, type ServerEntryInput } from './entry-schema.js';
import { plainEntry } from './entry-check.js';
import { brokenRule, entryConfig, entryType, problem, type EntryLocationInfo } from './entry-rules.js';

export { SERVER_ENTRY_KEYS, serverEntrySchema, type ServerEntryInput } from './entry-schema.js';
export { inferRemoteType, type EntryLocationInfo } from './entry-rules.js';

export type ValidatedEntry =
  | { ok: true; config: StdioServerConfig | RemoteServerConfig; warnings: ConfigProblem[] }
  | { ok: false; problems: ConfigProblem[] };

function expectedPhrase(expected: string): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'an array';
    case 'object':
    case 'record':
      return 'an object';
    default:
      return expected;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function issueMessage(issue: z.core.$ZodIssue, raw: unknown, name: string): string {
  const where = `"${formatJsonPath(issue.path as JsonPath)}" of server "${name}"`;
  const actual = valueAt(raw, issue.path);
  if (issue.code === 'invalid_type') {
    const expected = expectedPhrase(String(issue.expected));
    return `${where} must be ${expected}, but it is ${describeValue(actual)}.`;
  }
  if (issue.code === 'invalid_union') {
    if (issue.path[0] === 'dev')
      return `${where} must be a glob string or a list of glob strings, but it is ${describeValue(actual)}.`;
    // The other union is an env value.
    return `${where} must be a string (or a number or boolean), but it is ${describeValue(actual)}.`;
  }
  return `${where} ${issue.message}.`;
}

/**
 * Validates one entry and normalises it to a `ServerConfig` (strings still unexpanded).
 * Every problem carries the file, the JSON path of the offending field and what to do.
 */
export function validateServerEntry(raw: unknown, loc: EntryLocationInfo): ValidatedEntry {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const message = `Server "${loc.name}" must be an object like { "command": "..." } or { "url": "..." }, but it is ${describeValue(raw)}.`;
    return { ok: false, problems: [problem(loc, 'schema', message)] };
  }
  // A plainly right entry needs no zod (entry-check.ts); the rest get zod's issues as messages.
  let e: ServerEntryInput | undefined = plainEntry(raw);
  if (!e) {
    const parsed = serverEntrySchema.safeParse(raw);
    if (!parsed.success) {
      return {
        ok: false,
        problems: parsed.error.issues.map((i) =>
          problem(loc, 'schema', issueMessage(i, raw, loc.name), i.path as JsonPath),
        ),
      };
    }
    e = parsed.data;
  }
  const type = entryType(e);
  const broken = brokenRule(e, type, loc);
  if (broken) return { ok: false, problems: [broken] };
  return { ok: true, ...entryConfig(e, type, loc) };
}

/**
 * Checks a remote URL after variables are expanded: it must parse and its scheme must fit the
 * transport. Returns a message, or undefined when fine.
 */
export function checkRemoteUrl(type: 'sse' | 'http' | 'ws', url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"url" ${JSON.stringify(url)} is not a valid URL. Write the full address, e.g. "https://example.com/mcp".`;
  }
  const ok =
    type === 'ws' ? u.protocol === 'ws:' || u.protocol === 'wss:' : u.protocol === 'http:' || u.protocol === 'https:';
  if (!ok) {
    const want = type === 'ws' ? 'ws:// or wss://' : 'http:// or https://';
    return `"url" must start with ${want} for a "${type}" server, but it is ${u.protocol}//… Fix the URL or the "type".`;
  }
  return undefined;
}
