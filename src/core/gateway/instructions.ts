/**
 * The gateway's `instructions` for one agent: what the gateway is (worded for its front end), which
 * servers are still connecting (their tools come later, with `notifications/tools/list_changed`),
 * and each connected server's own instructions under a heading of its name. A server's text is
 * untrusted: it is sanitised (misleading Unicode out, sanitize.ts), cut per server and in total, and
 * quoted line by line, so a heading inside it cannot pass for another server's section.
 */
import type { ServerSnapshot } from '../host-api.js';
import { sanitizeLabel, sanitizeText } from '../capabilities/sanitize.js';

/** Who runs the gateway: the editor's extension, or `mcp-host serve` launched by the agent. */
export type GatewayFrontEnd = 'editor' | 'serve';

/** Longest instructions passed on from one server (sanitize.ts cuts with a marker). */
export const MAX_SERVER_INSTRUCTIONS = 2048;
/** Longest the servers' instructions may be together; past it the rest are named, not included. */
export const MAX_ALL_INSTRUCTIONS = 8192;

const WHERE: Record<GatewayFrontEnd, string> = {
  editor: 'every MCP server connected in the editor',
  serve: 'every MCP server that mcp-host serve runs from its configuration',
};

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

/**
 * @param servers the host's snapshots, in host order
 * @param shown the servers this agent is offered (its profile's): only theirs are passed on
 */
export function gatewayInstructions(
  frontEnd: GatewayFrontEnd,
  servers: readonly ServerSnapshot[],
  shown: (server: string) => boolean,
): string {
  const parts = [`MCP Host gateway: the tools, prompts and resources of ${WHERE[frontEnd]}, named <server>__<name>.`];
  const connecting = servers
    .filter((s) => s.state.kind === 'pending' && shown(s.name))
    .map((s) => sanitizeLabel(s.name));
  if (connecting.length > 0)
    parts.push(
      `Still connecting: ${connecting.join(', ')}. Their tools are offered once they connect (notifications/tools/list_changed); search_tools results say which servers are still connecting.`,
    );
  let room = MAX_ALL_INSTRUCTIONS;
  const left: string[] = [];
  for (const s of servers) {
    if (s.state.kind !== 'connected' || !s.state.instructions || !shown(s.name)) continue;
    const text = sanitizeText(s.state.instructions, MAX_SERVER_INSTRUCTIONS).trim();
    if (text === '') continue;
    const section = `## Instructions of the server "${sanitizeLabel(s.name)}"\n\n${quote(text)}`;
    if (section.length > room) {
      left.push(sanitizeLabel(s.name));
      continue;
    }
    room -= section.length;
    parts.push(section);
  }
  if (left.length > 0) parts.push(`Instructions of ${left.join(', ')} left out (too long together).`);
  return parts.join('\n\n');
}

/** Exposed servers still connecting, for search results. */
export function connectingServers(servers: readonly ServerSnapshot[], shown: (server: string) => boolean): string[] {
  return servers.filter((s) => s.state.kind === 'pending' && shown(s.name)).map((s) => s.name);
}
