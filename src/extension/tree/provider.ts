import * as vscode from 'vscode';
import { sharedSandboxRuntime } from '../../core/sandbox/index.js';
import { withSandbox } from '../sandbox.js';
import type { TreeSource } from './tree-source.js';
import { heldReason } from '../../core/config/index.js';
import {
  categoriesOf,
  categoryView,
  groupView,
  problemView,
  promptView,
  resourceView,
  scopesInUse,
  serverView,
  showsLists,
  templateView,
  toolView,
  visibleProblems,
  type ItemView,
} from './model.js';
import {
  CategoryNode,
  GroupNode,
  ProblemNode,
  PromptNode,
  ResourceNode,
  ServerNode,
  TemplateNode,
  ToolNode,
  UpstreamNode,
  problemId,
  type TreeNode,
} from './nodes.js';
import type { ToolFilter } from '../../core/tools/index.js';
import { applyToolCheckbox } from './tool-checkboxes.js';
import { planRefresh, type TreeShape } from './refresh-plan.js';
import { RefreshGate, type GateTimers } from './refresh-gate.js';
import { DeliveryCheck } from './delivery-check.js';
import { teamGatewayRow, ungroupedTools, upstreamGroups, upstreamToolView, upstreamView } from './upstream.js';

export type { TreeSource } from './tree-source.js';

/**
 * `mcpHost.servers`. Node objects are kept by id so an update fires `onDidChangeTreeData` with the
 * changed server only; the root is refreshed only when the set of rows changes.
 */
export class ServerTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, TreeNode>();
  private shape: TreeShape;
  private readonly sub: { dispose(): void };

  private readonly filterSub?: { dispose(): void };
  /** Rows the user expanded (true) or collapsed (false) in this window. */
  private readonly expansion = new Map<string, boolean>();
  /** Refreshes wait until the workbench stops asking for rows (refresh-gate.ts). */
  private readonly gate = new RefreshGate(
    (what) => (what.root ? this.fireRoot() : this.fireNow([...what.ids])),
    TIMERS,
  );
  /** A row refresh VS Code dropped becomes a refresh of the whole tree (delivery-check.ts). */
  private readonly check = new DeliveryCheck(
    (id) => {
      const n = this.nodes.get(id);
      return n && look(this.view(n));
    },
    (ids) => this.gate.request(ids),
    () => this.gate.request(),
    () => this.gate.waiting,
    TIMERS,
  );

  constructor(
    private readonly source: TreeSource,
    private readonly redact: (text: string) => string,
    /** A line about the server to show with its row (dev mode: what the last restart changed). */
    private readonly note: (server: string) => string | undefined = () => undefined,
    private readonly toolFilter?: ToolFilter,
  ) {
    this.shape = this.computeShape();
    this.sub = source.onDidChange((name) => this.refresh(name));
    this.filterSub = toolFilter?.onDidChange((c) => {
      const up = source.server(c.server)?.tools.find((t) => t.name === c.tool)?.upstream;
      const base = up ? upstreamId(c.server, up.server) : `${serverId(c.server)}/tools`;
      this.fireRows([`${base}/${c.tool}`, base]);
    });
  }

  /**
   * Fires for the rows a change can affect (see planRefresh): the root only when top-level rows
   * were added or removed, never for a row VS Code has not been given yet.
   */
  refresh(name?: string): void {
    const shape = this.computeShape();
    const plan = planRefresh(this.shape, shape, name === undefined ? undefined : serverId(name));
    this.shape = shape;
    if (plan.kind === 'root') this.gate.request();
    else this.fireRows(plan.ids);
  }

  private fireRows(ids: string[]): void {
    this.gate.request(ids);
  }

  private fireRoot(): void {
    this.check.firedRoot();
    this.changed.fire(undefined);
  }

  private fireNow(ids: string[]): void {
    const rows = ids.map((id) => this.nodes.get(id)).filter((n): n is TreeNode => n !== undefined);
    if (rows.length === 0) return;
    this.check.fired(rows.map((r) => r.id));
    this.changed.fire(rows);
  }

  /** Everything that decides which rows exist. */
  private computeShape(): TreeShape {
    const servers = this.source.servers();
    const problems = visibleProblems(this.source.problems()).map(problemId);
    const scopes = scopesInUse(servers);
    const grouped = scopes.length > 1;
    const groups: Record<string, string[]> = {};
    if (grouped)
      for (const scope of scopes)
        groups[`group/${scope}`] = servers
          .filter((s) => s.definition.source.scope === scope)
          .map((s) => serverId(s.name));
    const ids = servers.map((s) => serverId(s.name));
    return { top: [...(grouped ? Object.keys(groups) : ids), ...problems], groups, servers: ids, problems };
  }

  private node<T extends TreeNode>(id: string, make: () => T): T {
    const existing = this.nodes.get(id);
    if (existing) return existing as T;
    const n = make();
    this.nodes.set(id, n);
    return n;
  }

  getChildren(element?: TreeNode): TreeNode[] {
    const children = this.children(element);
    // Rows shown expanded are asked for next: those the user expanded, and the ones given expanded
    // (a server's Tools folder) unless the user collapsed them (VS Code keeps the user's choice).
    const expanded = children.filter((c) => {
      const chosen = this.expansion.get(c.id);
      if (chosen !== undefined) return chosen;
      return (c.type === 'category' || c.type === 'group') && this.view(c).collapsible === 'expanded';
    });
    this.gate.asked(
      element?.id,
      expanded.map((c) => c.id),
    );
    return children;
  }

  /** The user expanded or collapsed a row (the view's events). */
  setExpanded(id: string, expanded: boolean): void {
    this.expansion.set(id, expanded);
    if (!expanded) this.gate.collapsed(id);
  }

  private children(element?: TreeNode): TreeNode[] {
    const servers = this.source.servers();
    if (!element) {
      const problems = visibleProblems(this.source.problems()).map((p) => {
        const n = this.node(problemId(p), () => new ProblemNode(problemId(p), p));
        n.problem = p;
        return n;
      });
      const scopes = scopesInUse(servers);
      if (scopes.length > 1) {
        return [
          ...scopes.map((scope) => this.node(`group/${scope}`, () => new GroupNode(`group/${scope}`, scope))),
          ...problems,
        ];
      }
      return [...servers.map((s) => this.serverNode(s.name)), ...problems];
    }
    switch (element.type) {
      case 'group':
        return servers.filter((s) => s.definition.source.scope === element.scope).map((s) => this.serverNode(s.name));
      case 'server': {
        const s = this.source.server(element.server);
        if (!s || !showsLists(s) || heldReason(s.definition)) return [];
        const upstreams = upstreamGroups(s).map((g) => {
          const id = upstreamId(s.name, g.name);
          return this.node(id, () => new UpstreamNode(id, s.name, g.name));
        });
        return [
          ...upstreams,
          ...categoriesOf(s).map((c) => {
            const id = `${element.id}/${c.kind}`;
            return this.node(id, () => new CategoryNode(id, s.name, c.kind));
          }),
        ];
      }
      case 'upstream': {
        const s = this.source.server(element.server);
        const g = s && upstreamGroups(s).find((x) => x.name === element.upstream);
        return (g?.tools ?? []).map((t) => {
          const id = `${element.id}/${t.name}`;
          return this.node(id, () => new ToolNode(id, element.server, t.name, element.upstream));
        });
      }
      case 'category':
        return this.leaves(element);
      default:
        return [];
    }
  }

  private serverNode(name: string): ServerNode {
    return this.node(serverId(name), () => new ServerNode(serverId(name), name));
  }

  private leaves(c: CategoryNode): TreeNode[] {
    const s = this.source.server(c.server);
    if (!s) return [];
    const base = `${serverId(s.name)}/${c.kind}`;
    switch (c.kind) {
      case 'tools':
        // App-only tools (MCP Apps `visibility: ["app"]`) are for the app, not for people.
        return ungroupedTools(s).map((t) =>
          this.node(`${base}/${t.name}`, () => new ToolNode(`${base}/${t.name}`, s.name, t.name)),
        );
      case 'resources':
        return s.resources.map((r) =>
          this.node(`${base}/${r.uri}`, () => new ResourceNode(`${base}/${r.uri}`, s.name, r.uri)),
        );
      case 'templates':
        return s.resourceTemplates.map((r) =>
          this.node(
            `${base}/${r.uriTemplate}`,
            () => new TemplateNode(`${base}/${r.uriTemplate}`, s.name, r.uriTemplate),
          ),
        );
      case 'prompts':
        return s.prompts.map((p) =>
          this.node(`${base}/${p.name}`, () => new PromptNode(`${base}/${p.name}`, s.name, p.name)),
        );
    }
  }

  getTreeItem(element: TreeNode): vscode.TreeItem {
    const v = this.view(element);
    this.check.gave(element.id, look(v));
    const item = toTreeItem(v, element.id);
    applyToolCheckbox(item, element, this.toolFilter, () =>
      'server' in element ? (this.source.server(element.server)?.tools.map((t) => t.name) ?? []) : [],
    );
    return item;
  }

  getParent(element: TreeNode): TreeNode | undefined {
    if (element.type === 'server') {
      const s = this.source.server(element.server);
      return s && scopesInUse(this.source.servers()).length > 1
        ? this.nodes.get(`group/${s.definition.source.scope}`)
        : undefined;
    }
    if (element.type === 'category' || element.type === 'upstream') return this.nodes.get(serverId(element.server));
    if (element.type === 'tool')
      return this.nodes.get(
        element.upstream !== undefined
          ? upstreamId(element.server, element.upstream)
          : `${serverId(element.server)}/tools`,
      );
    if (element.type === 'resource') return this.nodes.get(`${serverId(element.server)}/resources`);
    if (element.type === 'template') return this.nodes.get(`${serverId(element.server)}/templates`);
    if (element.type === 'prompt') return this.nodes.get(`${serverId(element.server)}/prompts`);
    return undefined;
  }

  private view(element: TreeNode): ItemView {
    const gone: ItemView = { label: '(removed)', icon: 'circle-outline', contextValue: 'mcpGone', collapsible: 'none' };
    switch (element.type) {
      case 'group':
        return groupView(
          element.scope,
          this.source.servers().filter((s) => s.definition.source.scope === element.scope).length,
        );
      case 'server': {
        const s = this.source.server(element.server);
        if (!s) return gone;
        const v = teamGatewayRow(
          withSandbox(serverView(s, this.redact), s, sharedSandboxRuntime().blockedCount(s.name)),
          s,
        );
        const note = s.state.kind === 'connected' ? this.note(s.name) : undefined;
        return note
          ? {
              ...v,
              description: `${v.description ?? ''} · ${note}`,
              tooltip: `${v.tooltip ?? ''}\n\nLast dev-mode restart: ${note.replace(/[\\*_[\]<>]/g, '\\$&')}`,
            }
          : v;
      }
      case 'category': {
        const s = this.source.server(element.server);
        const c = s && categoriesOf(s).find((x) => x.kind === element.kind);
        return categoryView(element.kind, c?.count ?? 0);
      }
      case 'upstream': {
        const s = this.source.server(element.server);
        const g = s && upstreamGroups(s).find((x) => x.name === element.upstream);
        return g ? upstreamView(g) : gone;
      }
      case 'tool': {
        const t = this.source.server(element.server)?.tools.find((x) => x.name === element.tool);
        return t ? (element.upstream !== undefined ? upstreamToolView(t) : toolView(t)) : gone;
      }
      case 'resource': {
        const r = this.source.server(element.server)?.resources.find((x) => x.uri === element.uri);
        return r ? resourceView(r) : gone;
      }
      case 'template': {
        const r = this.source
          .server(element.server)
          ?.resourceTemplates.find((x) => x.uriTemplate === element.uriTemplate);
        return r ? templateView(r) : gone;
      }
      case 'prompt': {
        const p = this.source.server(element.server)?.prompts.find((x) => x.name === element.prompt);
        return p ? promptView(p) : gone;
      }
      case 'problem':
        return problemView(element.problem, this.redact);
    }
  }

  dispose(): void {
    this.check.dispose();
    this.gate.dispose();
    this.sub.dispose();
    this.filterSub?.dispose();
    this.changed.dispose();
  }
}

const TIMERS: GateTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** What a row shows, to tell whether VS Code has its latest look (the tooltip is left out). */
function look(v: ItemView): string {
  return JSON.stringify([v.label, v.description, v.icon, v.color, v.contextValue, v.collapsible]);
}

function serverId(name: string): string {
  return `server/${name}`;
}

function upstreamId(server: string, upstream: string): string {
  return `${serverId(server)}/upstream/${upstream}`;
}

const COLLAPSE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

function toTreeItem(v: ItemView, id: string): vscode.TreeItem {
  const item = new vscode.TreeItem(v.label, COLLAPSE[v.collapsible]);
  item.id = id;
  item.description = v.description;
  if (v.tooltip) {
    const md = new vscode.MarkdownString(v.tooltip, true);
    md.isTrusted = false;
    item.tooltip = md;
  }
  item.iconPath = new vscode.ThemeIcon(v.icon, v.color ? new vscode.ThemeColor(v.color) : undefined);
  item.contextValue = v.contextValue;
  if (v.command) item.command = v.command;
  return item;
}
