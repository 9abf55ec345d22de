/**
 * A gateway's tools in the tree, grouped under the servers behind it. MCP Host's gateways (the team
 * gateway above all) name each tool's upstream server in its `_meta` (core/upstream-meta.ts); a
 * server whose tools do shows one row per upstream server, each with that server's tools under
 * their own names, instead of one flat Tools folder of `<server>__<tool>` names. Calls, checkboxes
 * and menus are those of any tool row: the row stands for the gateway's tool. Free of `vscode`, so
 * it is unit-tested on plain Node with the rest of the model.
 */
import { visibleToModel } from '../../core/apps/index.js';
import type { HostTool, ServerSnapshot } from '../../core/host-api.js';
import { escapeMarkdown, toolView, type ItemView } from './model.js';

export interface UpstreamGroup {
  name: string;
  tools: HostTool[];
}

/** The upstream servers of a server's visible tools, in the order the gateway lists them; empty: not a gateway. */
export function upstreamGroups(s: ServerSnapshot): UpstreamGroup[] {
  const groups = new Map<string, HostTool[]>();
  for (const t of s.tools) {
    if (!t.upstream || !visibleToModel(t)) continue;
    const list = groups.get(t.upstream.server) ?? [];
    list.push(t);
    groups.set(t.upstream.server, list);
  }
  return [...groups].map(([name, tools]) => ({ name, tools }));
}

/** Visible tools the gateway names no upstream for (its search tools, say): they stay in the Tools folder. */
export function ungroupedTools(s: ServerSnapshot): HostTool[] {
  return s.tools.filter((t) => !t.upstream && visibleToModel(t));
}

export function upstreamView(g: UpstreamGroup): ItemView {
  return {
    label: g.name,
    description: `${g.tools.length} tool${g.tools.length === 1 ? '' : 's'}`,
    tooltip: `**${escapeMarkdown(g.name)}** — a server behind this gateway; its tools are called through the gateway.`,
    icon: 'server',
    contextValue: 'mcpUpstream',
    collapsible: 'collapsed',
  };
}

/** A gateway's tool under its upstream's row: the upstream's own name for it, the call the gateway's. */
export function upstreamToolView(t: HostTool): ItemView {
  const v = toolView(t);
  return t.upstream ? { ...v, label: t.upstream.tool } : v;
}

/** The team gateway's row: its name for people, and what it is. */
export function teamGatewayRow(v: ItemView, s: ServerSnapshot): ItemView {
  const mark = s.definition.teamGateway;
  if (!mark) return v;
  return {
    ...v,
    label: mark.displayName,
    description: v.description ? `team gateway · ${v.description}` : 'team gateway',
    tooltip: `${v.tooltip ?? ''}\n\nTeam gateway \`${s.name}\` (from ${escapeMarkdown(
      s.definition.source.scope === 'managed' ? 'the managed policy' : 'your mcpHost.teamGateway setting',
    )}): its servers are listed under it.`,
  };
}
