/**
 * Which upstream server a gateway's tool comes from, told in the tool's `_meta`: MCP Host's gateway
 * (the editor's, `serve`, the team gateway) lists every server's tools as one flat list of
 * `<server>__<tool>` names, and a client cannot split those names back (a server's name may hold
 * `__`, and long or clashing names end in a hash: naming.ts). So the gateway says it, and MCP Host as a
 * client of a team gateway groups the tools under their upstream servers (the tree, the palette).
 * Any other client ignores the key, as `_meta` allows.
 */

export const UPSTREAM_META_KEY = 'mcp-host/upstream';

/** The upstream server and that server's own name for the tool. */
export interface ToolUpstream {
  server: string;
  tool: string;
}

function name(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * The upstream a tool's `_meta` names, or undefined when it names none (or only garbage). As written:
 * the caller sanitises what it shows (capabilities/wrap.ts).
 */
export function toolUpstreamOf(meta: unknown): ToolUpstream | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const v = (meta as Record<string, unknown>)[UPSTREAM_META_KEY];
  if (typeof v !== 'object' || v === null) return undefined;
  const server = name((v as Record<string, unknown>).server);
  const tool = name((v as Record<string, unknown>).tool);
  return server !== undefined && tool !== undefined ? { server, tool } : undefined;
}

/** The `_meta` the gateway puts on a tool it lists. */
export function upstreamMeta(server: string, tool: string): Record<string, ToolUpstream> {
  return { [UPSTREAM_META_KEY]: { server, tool } };
}
