/**
 * Tool search mode: instead of every tool schema of every server, an agent is listed three tools
 * (search the catalogue, get one tool's schema, call a tool by name) plus the tools pinned to be
 * listed in full. Clients cap or warn on long tool lists (VS Code's chat past 128) and every schema
 * costs the model context, so past a threshold the gateway switches to this on its own.
 *
 * Ranking is BM25 over each tool's name, title, description and parameter names: no model and no
 * network, so it runs the same offline, in the CLI and in tests. `bench/tool-search.ts` measures it
 * on the real tool lists of real servers (test/fixtures/tool-catalog).
 */
import type { HostTool, ToolAnnotations } from '../host-api.js';

export type ToolSearchMode = 'auto' | 'on' | 'off';

export interface ToolSearchOptions {
  /** `auto` (default): search mode past either threshold; `on`: always; `off`: never. */
  mode?: ToolSearchMode;
  /** Auto switches on past this many tools. Default 64. */
  maxTools?: number;
  /** …or past this many bytes of tool definitions (JSON). Default 64 KiB. */
  maxSchemaBytes?: number;
  /** Servers (`name`) or gateway tools (`server__tool`) always listed in full, also in search mode. */
  alwaysList?: string[];
}

export const DEFAULT_MAX_TOOLS = 64;
export const DEFAULT_MAX_SCHEMA_BYTES = 64 * 1024;

export const SEARCH_TOOL = 'search_tools';
export const DESCRIBE_TOOL = 'get_tool_schema';
export const CALL_TOOL = 'call_tool';
export const SEARCH_TOOL_NAMES: readonly string[] = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL];

/** One entry of the searchable catalogue: a gateway tool name and the tool behind it. */
export interface SearchableTool {
  name: string;
  tool: Pick<HostTool, 'server' | 'name' | 'title' | 'description' | 'inputSchema'>;
}

const STOP = new Set(
  'a an and are as at be by can do does for from get has have how i in into is it its me my of on or our please should that the their them then there these this to use used using was we what when where which will with you your'.split(
    ' ',
  ),
);

/** Crude suffix stripping, so "files"/"file", "listing"/"list", "created"/"create" meet. */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(sh|ch|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * Words a task and a tool description use for the same thing; a query term also matches its
 * partners. Kept to general software vocabulary, not tuned to any server.
 */
const SYNONYMS: Record<string, string[]> = {
  folder: ['directory'],
  directory: ['folder'],
  dir: ['directory'],
  remove: ['delete'],
  delete: ['remove'],
  make: ['create'],
  new: ['create'],
  show: ['get', 'list'],
  fetch: ['get'],
  rename: ['move'],
  pr: ['pull', 'request'],
};

/** Query terms and their synonyms (already stemmed). */
export function queryTerms(query: string): string[] {
  const out = new Set<string>();
  for (const raw of query.split(/[^A-Za-z0-9]+/)) {
    for (const t of tokenize(raw)) out.add(t);
    for (const s of SYNONYMS[raw.toLowerCase()] ?? []) for (const t of tokenize(s)) out.add(t);
  }
  return [...out];
}

/** Words of a text: camelCase and snake_case split, lower case, stop words out, stemmed. */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

function parameterNames(schema: Record<string, unknown>): string[] {
  const props = schema.properties;
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/** Field weights: a word in a tool's name says more about it than one in its description. */
const WEIGHTS = { server: 1, name: 3, title: 2, description: 1, params: 1 } as const;
const K1 = 1.2;
const B = 0.75;

interface Doc {
  entry: SearchableTool;
  tf: Map<string, number>;
  length: number;
}

export interface SearchHit {
  name: string;
  score: number;
}

/** A BM25 index over one catalogue; build a new one when the catalogue changes. */
export class ToolIndex {
  private readonly docs: Doc[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(entries: readonly SearchableTool[]) {
    this.docs = entries.map((entry) => {
      const tf = new Map<string, number>();
      let length = 0;
      const add = (text: string | undefined, weight: number): void => {
        if (!text) return;
        for (const t of tokenize(text)) {
          tf.set(t, (tf.get(t) ?? 0) + weight);
          length += weight;
        }
      };
      const t = entry.tool;
      add(t.server, WEIGHTS.server);
      add(t.name, WEIGHTS.name);
      add(t.title, WEIGHTS.title);
      add(t.description, WEIGHTS.description);
      add(parameterNames(t.inputSchema).join(' '), WEIGHTS.params);
      return { entry, tf, length };
    });
    for (const d of this.docs) for (const term of d.tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.avgLength = this.docs.reduce((n, d) => n + d.length, 0) / Math.max(1, this.docs.length);
  }

  get size(): number {
    return this.docs.length;
  }

  /** The best `limit` tools for `query`, optionally only those of `server`; no match scores zero and is left out. */
  search(query: string, opts: { server?: string; limit?: number } = {}): SearchHit[] {
    const terms = queryTerms(query);
    const n = this.docs.length;
    const hits: SearchHit[] = [];
    for (const d of this.docs) {
      if (opts.server !== undefined && d.entry.tool.server !== opts.server) continue;
      let score = 0;
      for (const term of terms) {
        const f = d.tf.get(term);
        if (!f) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / this.avgLength));
      }
      if (score > 0) hits.push({ name: d.entry.name, score });
    }
    hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return hits.slice(0, opts.limit ?? 8);
  }
}

/** The bytes an agent's context spends on a tool list: its JSON. */
export function listBytes(tools: readonly unknown[]): number {
  return Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
}

/** Whether an agent that did not ask for either is served in search mode; `list`: its full tool list's count and bytes. */
export function searchModeApplies(
  opts: ToolSearchOptions,
  list: { count: number; bytes: number },
  requested?: 'full' | 'search',
): boolean {
  if (requested) return requested === 'search';
  const mode = opts.mode ?? 'auto';
  if (mode !== 'auto') return mode === 'on';
  return (
    list.count > (opts.maxTools ?? DEFAULT_MAX_TOOLS) || list.bytes > (opts.maxSchemaBytes ?? DEFAULT_MAX_SCHEMA_BYTES)
  );
}

/** Whether a gateway tool stays listed in full in search mode. */
export function isAlwaysListed(opts: ToolSearchOptions, gatewayName: string, server: string): boolean {
  const list = opts.alwaysList ?? [];
  return list.includes(server) || list.includes(gatewayName);
}

/**
 * `search_tools` and `get_tool_schema` read the gateway's own catalogue: nothing changes, nothing
 * outside is reached. Without these the specification's defaults (destructive, open-world) apply,
 * and agents ask approval for every search (Codex refuses them under `approval_policy = "never"`).
 */
export const CATALOGUE_READ_HINTS: ToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * `call_tool`'s hints: the weakest promise of the tools it can call (each tool's own hints, or
 * the specification's defaults where it gives none). Read-only only when every callable tool is;
 * destructive or open-world when any one may be. The called tool's own hints are in the search
 * results and `get_tool_schema`, so an agent can judge each call.
 */
export function callToolHints(tools: readonly { annotations?: unknown }[]): ToolAnnotations {
  const all = tools.map((t) => (t.annotations ?? {}) as ToolAnnotations);
  const readOnly = all.every((a) => a.readOnlyHint === true);
  return {
    readOnlyHint: readOnly,
    // A read-only tool is never destructive (the default true applies to tools that write).
    destructiveHint: all.some((a) => a.readOnlyHint !== true && a.destructiveHint !== false),
    idempotentHint: all.every((a) => a.readOnlyHint === true || a.idempotentHint === true),
    openWorldHint: all.some((a) => a.openWorldHint !== false),
  };
}

/** The three tools of search mode; `servers` are named in the search tool's description so the model knows what is there. */
export function searchToolDefinitions(
  servers: readonly { name: string; tools: number }[],
  total: number,
  callHints: ToolAnnotations = callToolHints([{}]),
): {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object' } & Record<string, unknown>;
  annotations: ToolAnnotations;
}[] {
  const where = servers.map((s) => `${s.name} (${s.tools})`).join(', ') || 'none connected';
  return [
    {
      name: SEARCH_TOOL,
      title: 'Search tools',
      description:
        `Finds tools by what they do. ${total} tools are available but not listed; search with a few words ` +
        `describing the task, then call the tool with ${CALL_TOOL}. Servers: ${where}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words describing the task, e.g. "read a file" or "create issue"' },
          server: { type: 'string', description: 'Only tools of this server' },
          limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many tools to return (default 8)' },
        },
        required: ['query'],
      },
      annotations: { title: 'Search tools', ...CATALOGUE_READ_HINTS },
    },
    {
      name: DESCRIBE_TOOL,
      title: 'Get a tool’s schema',
      description: `The full definition (description and input schema) of one tool found with ${SEARCH_TOOL}.`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The tool name, as search_tools returned it' } },
        required: ['name'],
      },
      annotations: { title: 'Get a tool’s schema', ...CATALOGUE_READ_HINTS },
    },
    {
      name: CALL_TOOL,
      title: 'Call a tool',
      description: `Calls a tool by the name ${SEARCH_TOOL} returned, with arguments that match its input schema.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The tool name' },
          arguments: { type: 'object', description: 'The tool’s arguments', additionalProperties: true },
        },
        required: ['name'],
      },
      annotations: { title: 'Call a tool', ...callHints },
    },
  ];
}

/** First sentence (or the first 160 characters) of a description, for compact search results. */
export function summary(description: string): string {
  const one = description.replace(/\s+/g, ' ').trim();
  const stop = one.search(/[.!?](\s|$)/);
  const s = stop > 0 && stop < 160 ? one.slice(0, stop + 1) : one.slice(0, 160);
  return s.length < one.length && !/[.!?]$/.test(s) ? `${s}…` : s;
}

type TextResult = { content: { type: 'text'; text: string }[]; isError?: true };
const json = (value: unknown): TextResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 1) }] });
const fail = (text: string): TextResult => ({ content: [{ type: 'text', text }], isError: true });

/** A tool as search results show it: enough to call it, and the full schema. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: unknown;
}

/**
 * One call of a search-mode tool: the answer for `search_tools` / `get_tool_schema`, or, for
 * `call_tool`, which gateway tool to call with which arguments (the gateway makes the call).
 */
export function searchModeCall(
  tool: string,
  args: Record<string, unknown>,
  index: ToolIndex,
  definition: (name: string) => (ListedTool & { server: string }) | undefined,
  connecting: readonly string[] = [],
): { result: TextResult } | { call: { name: string; arguments: Record<string, unknown> } } {
  const str = (k: string): string | undefined => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  if (tool === SEARCH_TOOL) {
    const query = str('query');
    if (!query?.trim()) return { result: fail('search_tools needs a "query": a few words describing the task') };
    const limit = typeof args.limit === 'number' && args.limit >= 1 ? Math.min(50, Math.floor(args.limit)) : 5;
    const server = str('server');
    const hits = index.search(query, { limit, ...(server ? { server } : {}) });
    const tools = hits.flatMap((h) => {
      const d = definition(h.name);
      return d
        ? [
            {
              name: d.name,
              server: d.server,
              ...(d.title ? { title: d.title } : {}),
              description: d.description ?? '',
              inputSchema: d.inputSchema,
              // What calling it does (read-only, destructive…), which call_tool's own hints cannot say.
              ...(d.annotations !== undefined ? { annotations: d.annotations } : {}),
            },
          ]
        : [];
    });
    // Servers still connecting have no tools in the index yet: a search that misses may find them later.
    const later = connecting.length
      ? { stillConnecting: connecting, note: 'These servers are still connecting; their tools are not searchable yet.' }
      : {};
    return {
      result: json(
        tools.length
          ? { tools, hint: `Call one with ${CALL_TOOL} {name, arguments}.`, ...later }
          : { tools, hint: 'No tool matched; try other words, or leave out "server".', ...later },
      ),
    };
  }
  const name = str('name');
  if (!name) return { result: fail(`${tool} needs the "name" of a tool (from ${SEARCH_TOOL})`) };
  const d = definition(name);
  if (!d) return { result: fail(`no tool "${name}"; find tools with ${SEARCH_TOOL}`) };
  if (tool === DESCRIBE_TOOL) return { result: json(d) };
  const a = args.arguments;
  if (a !== undefined && (typeof a !== 'object' || a === null || Array.isArray(a)))
    return { result: fail(`${CALL_TOOL}: "arguments" must be an object`) };
  return { call: { name, arguments: (a ?? {}) as Record<string, unknown> } };
}
