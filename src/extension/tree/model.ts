/**
 * What the server tree shows, computed from host snapshots without touching `vscode`, so the
 * labels, icons, context values and tooltips are unit-tested on plain Node. `provider.ts` turns
 * these views into `vscode.TreeItem`s.
 */
import { visibleToModel } from '../../core/apps/index.js';
import type { HostPrompt, HostResource, HostResourceTemplate, HostTool, ServerSnapshot } from '../../core/host-api.js';
import { type ConfigProblem, heldReason, type HeldReason, type Scope } from '../../core/config/index.js';
import { assertNever, type ConnectionState, ConnectionStates, isRemote } from '../../core/connection/index.js';
import { escapeMarkdown } from '../../core/calls/index.js';
import { usesCrossAppAccess } from '../../core/auth/index.js';

/** A display-ready tree row; `provider.ts` maps it one-to-one onto a `vscode.TreeItem`. */
export interface ItemView {
  label: string;
  description?: string;
  /** Markdown (trusted only for our own command links; server text is escaped). */
  tooltip?: string;
  /** Codicon id, e.g. `pass-filled`, `loading~spin`. */
  icon: string;
  /** Theme colour id, e.g. `testing.iconPassed`. */
  color?: string;
  /** Drives `view/item/context` menus, see package.json `contributes.menus`. */
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: { command: string; title: string; arguments: unknown[] };
}

/** Held reasons the tree shows as their own kind (`config` is plain `disabled`). */
type ShownHeld = Exclude<HeldReason, 'config'>;

/** The kind of state a server row shows: admission's reason when it is held back, else the connection's. */
export type DisplayKind = ConnectionState['kind'] | ShownHeld | 'stopped';

export function displayKind(s: ServerSnapshot): DisplayKind {
  const held = heldReason(s.definition);
  if (held) return held === 'config' ? 'disabled' : held;
  if (s.state.kind === 'disabled' && s.state.reason === 'user') return 'stopped';
  // Not started until first use: the menus and the icon of a server waiting for its start.
  if (s.state.kind === 'disabled' && s.state.reason === 'on-first-use') return 'manual';
  return s.state.kind;
}

const ICONS: Record<DisplayKind, { icon: string; color?: string }> = {
  connected: { icon: 'pass-filled', color: 'testing.iconPassed' },
  pending: { icon: 'loading~spin' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  'needs-auth': { icon: 'key', color: 'list.warningForeground' },
  disabled: { icon: 'circle-slash', color: 'disabledForeground' },
  stopped: { icon: 'debug-stop', color: 'disabledForeground' },
  'user-disabled': { icon: 'circle-slash', color: 'disabledForeground' },
  manual: { icon: 'debug-stop', color: 'disabledForeground' },
  untrusted: { icon: 'shield', color: 'list.warningForeground' },
  'not-approved': { icon: 'workspace-untrusted', color: 'list.warningForeground' },
  policy: { icon: 'circle-slash', color: 'list.warningForeground' },
  editor: { icon: 'vscode', color: 'disabledForeground' },
};

const SCOPE_LABELS: Record<Scope, string> = {
  managed: 'Managed',
  user: 'User',
  discovered: 'Discovered',
  workspace: 'Workspace (.vscode/mcp.json)',
  project: 'Project (.mcp.json)',
  dynamic: 'Registered by extensions',
};

export function scopeLabel(scope: Scope): string {
  return SCOPE_LABELS[scope];
}

export { escapeMarkdown };

/** Inline code span that survives backticks inside the text. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  // Every line ending: a lone `\r` also ends the span in Markdown, and the rest would render.
  return `${fence} ${text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')} ${fence}`;
}

function firstLine(text: string, max: number): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const HELD_TEXT: Record<HeldReason, string> = {
  config: 'disabled',
  policy: 'denied by policy',
  untrusted: 'workspace not trusted',
  'not-approved': 'waiting for your approval',
  'user-disabled': 'disabled in this workspace',
  manual: 'not started (autoStart is off)',
  editor: 'run by VS Code',
};

/** Short description next to the server name: state plus counts, or a short error. */
/** Connected, or connecting with the last run's lists (list cache): the tree shows its lists. */
export function showsLists(s: ServerSnapshot): boolean {
  if (s.state.kind === 'disabled') return s.cached === true && s.state.reason === 'on-first-use';
  return s.state.kind === 'connected' || (s.cached === true && s.state.kind === 'pending');
}

function listCounts(s: ServerSnapshot): string {
  const parts = [plural(s.tools.filter(visibleToModel).length, 'tool')];
  if (s.resources.length + s.resourceTemplates.length > 0)
    parts.push(plural(s.resources.length + s.resourceTemplates.length, 'resource'));
  if (s.prompts.length > 0) parts.push(plural(s.prompts.length, 'prompt'));
  return parts.join(', ');
}

export function serverDescription(s: ServerSnapshot): string {
  const held = heldReason(s.definition);
  if (held) return HELD_TEXT[held];
  const st = s.state;
  switch (st.kind) {
    case 'connected':
      return listCounts(s);
    case 'failed':
      return `failed: ${firstLine(st.error.message, 60)}`;
    case 'needs-auth':
      return usesCrossAppAccess(s.definition) ? 'waits for the company sign-in' : 'needs authentication';
    case 'pending':
      return s.cached ? `${ConnectionStates.label(st)} · cached: ${listCounts(s)}` : ConnectionStates.label(st);
    case 'disabled':
      if (st.reason === 'on-first-use') return `starts on first use · cached: ${listCounts(s)}`;
      return st.reason === 'user' ? 'stopped' : 'disabled';
    default:
      return assertNever(st);
  }
}

/** `mcpServer.<kind>` plus `.remote` for servers that can authenticate; menus match on it. */
export function serverContextValue(s: ServerSnapshot): string {
  const kind = displayKind(s);
  const a = s.definition.admission;
  // `.shared`: VS Code runs its own copy too when asked, so the row offers "Leave to VS Code".
  const shared = a?.run === true && a.sharedWithEditor === true ? '.shared' : '';
  return `mcpServer.${kind}${isRemote(s.definition.config) ? '.remote' : ''}${shared}`;
}

/**
 * The hover of a server row. `redact` removes secrets from command lines and URLs (core redact.ts);
 * everything that came from a server or a file is escaped.
 */
export function serverTooltip(s: ServerSnapshot, redact: (text: string) => string): string {
  const lines: string[] = [];
  const kind = displayKind(s);
  const held = heldReason(s.definition);
  lines.push(
    `**${escapeMarkdown(s.name)}** — ${escapeMarkdown(held ? HELD_TEXT[held] : ConnectionStates.label(s.state))}`,
    '',
  );
  const c = s.definition.config;
  lines.push(`Transport: ${code(c.type)}  `);
  if (c.type === 'stdio') lines.push(`Command: ${code(redact([c.command, ...c.args].join(' ')))}  `);
  else if (c.type === 'inprocess') lines.push(`In-process server: ${code(c.id)}  `);
  else lines.push(`URL: ${code(redact(c.url))}  `);
  lines.push(`Source: ${code(s.definition.source.file)} (${escapeMarkdown(scopeLabel(s.definition.source.scope))})  `);
  const st = s.state;
  if (st.kind === 'connected') {
    lines.push(`Server: ${code(`${st.serverInfo.name} ${st.serverInfo.version}`)}  `);
    lines.push(`Connected in ${Math.round(st.connectMs)} ms  `);
    if (st.protocolVersion) lines.push(`Protocol: MCP ${code(st.protocolVersion)}  `);
    // What the host tolerated from this server (e.g. lists without cache hints), as doctor shows it.
    for (const w of st.protocolWarnings ?? [])
      lines.push(`$(warning) Breaks the protocol: ${escapeMarkdown(redact(w))}  `);
    if (st.instructions) {
      const start = st.instructions.length > 300 ? `${st.instructions.slice(0, 300)}…` : st.instructions;
      lines.push('', `Instructions: ${escapeMarkdown(redact(start))}`);
    }
  } else if (st.kind === 'failed') {
    lines.push('', `Error: ${escapeMarkdown(redact(st.error.message))}`);
    if (st.error.hint) lines.push('', escapeMarkdown(redact(st.error.hint)));
  } else if (st.kind === 'needs-auth') {
    lines.push(
      '',
      usesCrossAppAccess(s.definition)
        ? 'Waits for the sign-in to the company identity provider — use **Authenticate** (one sign-in for every such server).'
        : `${escapeMarkdown(redact(st.message))} — use **Authenticate**.`,
    );
  } else if (showsLists(s)) {
    lines.push('', 'The lists shown are cached from the last run; calls wait until the server is connected.');
  }
  // Admission says why it held a server back (e.g. an entry pointing at our own gateway).
  const admission = s.definition.admission;
  if (admission && !admission.run) lines.push('', escapeMarkdown(redact(admission.message)));
  if (kind === 'untrusted')
    lines.push('', 'Servers defined by this workspace only start once you trust the workspace.');
  if (kind === 'not-approved') lines.push('', 'Use **Start Server** to review and approve what it would run.');
  if (kind === 'editor')
    lines.push(
      '',
      'Its VS Code entry is in **MCP: List Servers** (start, stop and its output there). **Take Back from VS Code** runs it in MCP Host instead and stops VS Code’s copy.',
    );
  return lines.join('\n');
}

export function serverView(s: ServerSnapshot, redact: (text: string) => string): ItemView {
  const look = ICONS[displayKind(s)];
  const hasChildren =
    showsLists(s) &&
    !heldReason(s.definition) &&
    s.tools.length + s.resources.length + s.resourceTemplates.length + s.prompts.length > 0;
  return {
    label: s.name,
    description: serverDescription(s),
    tooltip: serverTooltip(s, redact),
    icon: look.icon,
    color: look.color,
    contextValue: serverContextValue(s),
    collapsible: hasChildren ? 'collapsed' : 'none',
  };
}

export type CategoryKind = 'tools' | 'resources' | 'templates' | 'prompts';

const CATEGORY: Record<CategoryKind, { label: string; icon: string }> = {
  tools: { label: 'Tools', icon: 'tools' },
  resources: { label: 'Resources', icon: 'book' },
  templates: { label: 'Resource Templates', icon: 'symbol-snippet' },
  prompts: { label: 'Prompts', icon: 'comment-discussion' },
};

/** Which category folders a connected server shows (empty ones are left out). */
export function categoriesOf(s: ServerSnapshot): { kind: CategoryKind; count: number }[] {
  const all: { kind: CategoryKind; count: number }[] = [
    // A gateway's tools that name their upstream server are under that server's row (upstream.ts).
    { kind: 'tools', count: s.tools.filter((t) => visibleToModel(t) && !t.upstream).length },
    { kind: 'resources', count: s.resources.length },
    { kind: 'templates', count: s.resourceTemplates.length },
    { kind: 'prompts', count: s.prompts.length },
  ];
  return all.filter((c) => c.count > 0);
}

export function categoryView(kind: CategoryKind, count: number): ItemView {
  return {
    label: CATEGORY[kind].label,
    description: String(count),
    icon: CATEGORY[kind].icon,
    contextValue: `mcpCategory.${kind}`,
    collapsible: kind === 'tools' ? 'expanded' : 'collapsed',
  };
}

/** Marks shown after a tool's name; the same words the palette uses. */
export function toolMarkers(t: HostTool): string[] {
  const m: string[] = [];
  if (t.annotations.readOnlyHint) m.push('read-only');
  if (t.annotations.destructiveHint) m.push('destructive');
  if (t.annotations.openWorldHint) m.push('open-world');
  return m;
}

export function toolView(t: HostTool): ItemView {
  const markers = toolMarkers(t);
  const icon = t.annotations.destructiveHint ? 'warning' : t.annotations.readOnlyHint ? 'eye' : 'symbol-method';
  const color = t.annotations.destructiveHint ? 'list.warningForeground' : undefined;
  const tooltip = [
    `**${escapeMarkdown(t.title ?? t.name)}** ${code(t.qualifiedName)}`,
    markers.length ? `\n_${markers.join(', ')}_` : '',
    t.description ? `\n\n${escapeMarkdown(t.description)}` : '',
  ].join('');
  return {
    label: t.name,
    description: markers.join(', ') || undefined,
    tooltip,
    icon,
    color,
    contextValue: `mcpTool${t.annotations.destructiveHint ? '.destructive' : ''}`,
    collapsible: 'none',
    command: { command: 'mcpHost.callTool', title: 'Call Tool', arguments: [{ server: t.server, tool: t.name }] },
  };
}

export function resourceView(r: HostResource): ItemView {
  return {
    label: r.title ?? r.name,
    description: r.uri,
    tooltip: [
      `**${escapeMarkdown(r.title ?? r.name)}**`,
      code(r.uri),
      r.mimeType ? code(r.mimeType) : '',
      r.description ? escapeMarkdown(r.description) : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    icon: 'file',
    contextValue: 'mcpResource',
    collapsible: 'none',
    command: { command: 'mcpHost.readResource', title: 'Read Resource', arguments: [{ server: r.server, uri: r.uri }] },
  };
}

export function templateView(r: HostResourceTemplate): ItemView {
  return {
    label: r.title ?? r.name,
    description: r.uriTemplate,
    tooltip: [
      `**${escapeMarkdown(r.title ?? r.name)}**`,
      code(r.uriTemplate),
      r.description ? escapeMarkdown(r.description) : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    icon: 'symbol-snippet',
    contextValue: 'mcpResourceTemplate',
    collapsible: 'none',
    command: {
      command: 'mcpHost.readResource',
      title: 'Read Resource',
      arguments: [{ server: r.server, uriTemplate: r.uriTemplate }],
    },
  };
}

export function promptView(p: HostPrompt): ItemView {
  const args = p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
  return {
    label: p.title ?? p.name,
    description: args || undefined,
    tooltip: [`**${escapeMarkdown(p.title ?? p.name)}**`, p.description ? escapeMarkdown(p.description) : '']
      .filter(Boolean)
      .join('\n\n'),
    icon: 'comment',
    contextValue: 'mcpPrompt',
    collapsible: 'none',
    command: { command: 'mcpHost.getPrompt', title: 'Get Prompt', arguments: [{ server: p.server, prompt: p.name }] },
  };
}

export function problemView(p: ConfigProblem, redact: (text: string) => string): ItemView {
  const where = p.jsonPath.length ? p.jsonPath.join('.') : '(file)';
  const base = p.file.split(/[\\/]/).pop() ?? p.file;
  return {
    label: p.server ?? base,
    description: `${p.severity === 'error' ? 'config error' : 'warning'}: ${firstLine(redact(p.message), 70)}`,
    tooltip: `**${escapeMarkdown(p.server ?? base)}** — ${p.severity}\n\n${escapeMarkdown(redact(p.message))}\n\n${code(p.file)} at ${code(where)}`,
    icon: p.severity === 'error' ? 'error' : 'warning',
    color: p.severity === 'error' ? 'errorForeground' : 'list.warningForeground',
    contextValue: `mcpProblem.${p.severity}`,
    collapsible: 'none',
    command: {
      command: 'mcpHost.openConfig',
      title: 'Open Config',
      arguments: [{ file: p.file, jsonPath: p.jsonPath }],
    },
  };
}

export function groupView(scope: Scope, count: number): ItemView {
  return {
    label: scopeLabel(scope),
    description: String(count),
    icon: 'folder',
    contextValue: `mcpScope.${scope}`,
    collapsible: 'expanded',
  };
}

/** Problems worth a row: every error, and warnings other than "shadowed" (which is expected). */
export function visibleProblems(problems: ConfigProblem[]): ConfigProblem[] {
  return problems.filter((p) => p.severity === 'error' || p.code !== 'shadowed');
}

/** Grouping by scope only helps when more than one scope is in use. */
export function scopesInUse(servers: ServerSnapshot[]): Scope[] {
  const seen = new Set<Scope>(servers.map((s) => s.definition.source.scope));
  const order: Scope[] = ['dynamic', 'project', 'workspace', 'discovered', 'user', 'managed'];
  return order.filter((s) => seen.has(s));
}
