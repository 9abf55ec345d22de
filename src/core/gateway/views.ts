/**
 * What one agent is shown: its profile's catalogue (profiles.ts), listed in full or in tool
 * search mode (tool-search.ts). An agent picks both when it connects (`/mcp/<profile>?tools=all`
 * over HTTP, `serve --profile NAME --all-tools`); the settings behind them are read live, so a
 * change reaches connected agents with the next refresh, as a `list_changed`.
 */
import type { Catalog, ExposedTool, ExposureFilter } from './catalog.js';
import { upstreamMeta } from '../upstream-meta.js';
import { profileFilter, type GatewayProfile } from './profiles.js';
import {
  callToolHints,
  isAlwaysListed,
  listBytes,
  searchModeApplies,
  searchToolDefinitions,
  ToolIndex,
  type ListedTool,
  type ToolSearchOptions,
} from './tool-search.js';

/** How an agent asked to be served. */
export interface AgentView {
  /** A profile name; the whole gateway when omitted. */
  profile?: string;
  /** `full`: every tool listed, whatever the threshold; `search`: search mode always; neither: the settings decide. */
  tools?: 'full' | 'search';
}

/** Header an agent sends to choose its tool listing, like the `tools` query parameter. */
export const TOOLS_HEADER = 'x-mcp-host-tools';

/**
 * The view an HTTP agent asked for: the profile from the path (`/mcp/<profile>`) and the tool
 * listing from `?tools=all|search` or the `X-MCP-Host-Tools` header; a message for a bad value.
 */
export function agentViewOf(url: string, headers: Record<string, string | string[] | undefined>): AgentView | string {
  const parsed = new URL(url, 'http://gateway');
  const view: AgentView = {};
  const segment = /^\/mcp\/([^/]+)$/.exec(parsed.pathname)?.[1];
  if (segment !== undefined) {
    try {
      view.profile = decodeURIComponent(segment);
    } catch {
      return `bad profile name in ${parsed.pathname}`;
    }
  }
  const header = headers[TOOLS_HEADER];
  const asked = parsed.searchParams.get('tools') ?? (typeof header === 'string' ? header : undefined);
  if (asked !== undefined && asked !== null) {
    const tools = parseToolsChoice(asked);
    if (!tools) return `tools=${asked}: expected "all" (every tool listed) or "search" (tool search mode)`;
    view.tools = tools;
  }
  return view;
}

/** `all`/`full` → every tool listed; `search` → search mode. */
export function parseToolsChoice(value: string): AgentView['tools'] | undefined {
  const v = value.trim().toLowerCase();
  return v === 'all' || v === 'full' ? 'full' : v === 'search' ? 'search' : undefined;
}

export interface GatewayViewOptions {
  toolSearch?: () => ToolSearchOptions;
  profiles?: () => Readonly<Record<string, GatewayProfile>>;
}

export class GatewayViews {
  constructor(private readonly opts: GatewayViewOptions) {}

  hasProfile(name: string): boolean {
    return Object.hasOwn(this.opts.profiles?.() ?? {}, name);
  }

  profileNames(): string[] {
    return Object.keys(this.opts.profiles?.() ?? {});
  }

  /** The gateway's filter narrowed to profile `name`; undefined when there is no such profile. */
  filterFor(name: string, base: ExposureFilter): ExposureFilter | undefined {
    const p = this.opts.profiles?.()[name];
    return p ? profileFilter(base, p) : undefined;
  }

  searchOptions(view: AgentView): ToolSearchOptions {
    const base = this.opts.toolSearch?.() ?? {};
    const mode = view.profile !== undefined ? this.opts.profiles?.()[view.profile]?.toolSearch : undefined;
    return mode ? { ...base, mode } : base;
  }
}

/** A tool as `tools/list` carries it. */
export type WireTool = ListedTool & {
  outputSchema?: Record<string, unknown>;
  annotations?: unknown;
  _meta?: Record<string, unknown>;
};

function wire({ name, tool }: ExposedTool): WireTool {
  return {
    name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
    // Which server it comes from, for clients that group (MCP Host as a team gateway's client).
    _meta: upstreamMeta(tool.server, tool.name),
  };
}

interface Prepared {
  all: WireTool[];
  bytes: number;
  byName: Map<string, WireTool & { server: string }>;
  index?: ToolIndex;
}
/** Per catalogue (catalogues are rebuilt, never changed, on refresh). */
const prepared = new WeakMap<Catalog, Prepared>();

function prepare(catalog: Catalog): Prepared {
  let p = prepared.get(catalog);
  if (!p) {
    const all = catalog.tools.map(wire);
    const byName = new Map(catalog.tools.map((t, i) => [t.name, { ...all[i]!, server: t.tool.server }]));
    p = { all, byName, bytes: listBytes(all) };
    prepared.set(catalog, p);
  }
  return p;
}

/**
 * The tools `tools/list` gives this agent and, in search mode, the index its `search_tools`
 * ranks with and the definitions `get_tool_schema` returns. Stand-in sign-in tools are always
 * listed: an agent cannot search for a server it does not know is there.
 */
export function agentTools(
  catalog: Catalog,
  view: AgentView,
  views: GatewayViews | undefined,
): {
  tools: WireTool[];
  search?: ToolIndex;
  definition: (name: string) => (WireTool & { server: string }) | undefined;
} {
  const p = prepare(catalog);
  const definition = (name: string) => p.byName.get(name);
  const opts = views?.searchOptions(view) ?? { mode: 'off' as const };
  if (!searchModeApplies(opts, { count: p.all.length, bytes: p.bytes }, view.tools))
    return { tools: p.all, definition };
  const pinned = catalog.tools.flatMap((t, i) =>
    t.signIn || isAlwaysListed(opts, t.name, t.tool.server) ? [p.all[i]!] : [],
  );
  const hidden = catalog.tools.filter((t) => !t.signIn);
  p.index ??= new ToolIndex(hidden);
  const counts = new Map<string, number>();
  for (const t of hidden) counts.set(t.tool.server, (counts.get(t.tool.server) ?? 0) + 1);
  const servers = [...counts].map(([name, tools]) => ({ name, tools }));
  const callHints = callToolHints(hidden.map((t) => ({ annotations: t.tool.annotations })));
  return {
    tools: [...pinned, ...searchToolDefinitions(servers, hidden.length, callHints)],
    search: p.index,
    definition,
  };
}
