/**
 * What the gateway exposes: the tools, prompts and resources of every exposed, connected server,
 * under names an agent can tell apart. Tools and prompts are `<server>__<name>` (naming.ts rules;
 * tool names also stay apart as agents rewrite them, agent-names.ts);
 * resources keep their own URIs unless two servers offer the same one, and then each of them is
 * wrapped as `mcp-host://<server>/<uri>`, which `resolveResourceUri` turns back.
 */
import { visibleToModel } from '../apps/meta.js';
import type { HostPrompt, HostResource, HostResourceTemplate, HostTool, ServerSnapshot } from '../host-api.js';
import { gatewayName } from '../naming.js';
import { AgentToolNames } from './agent-names.js';

export const WRAPPED_SCHEME = 'mcp-host://';

/** Decides what the gateway may show; both default to "everything". */
export interface ExposureFilter {
  /** False for servers that are never exposed (the exclude list, the gateway itself). */
  isServerExposed?(server: string): boolean;
  /** The per-tool disable hook (and the managed policy, when it gains tool rules). */
  isToolEnabled?(server: string, tool: string): boolean;
  /** A rule on the whole tool (a profile's read-only rule, profiles.ts). */
  acceptsTool?(tool: HostTool): boolean;
}

export interface ExposedTool {
  name: string;
  tool: HostTool;
  /** The stand-in tool of a server that needs sign-in (auth-tool.ts): calling it signs in, not the server. */
  signIn?: true;
}
export interface ExposedPrompt {
  name: string;
  prompt: HostPrompt;
}
export interface ExposedResource {
  uri: string;
  resource: HostResource;
}
export interface ExposedTemplate {
  uriTemplate: string;
  template: HostResourceTemplate;
}

export interface Catalog {
  tools: ExposedTool[];
  prompts: ExposedPrompt[];
  resources: ExposedResource[];
  templates: ExposedTemplate[];
  /** Exposed servers, in host order. */
  servers: string[];
}

export function wrapUri(server: string, uri: string): string {
  return `${WRAPPED_SCHEME}${encodeURIComponent(server)}/${uri}`;
}

/** `mcp-host://<server>/<uri>` → its parts; undefined for any other URI. */
export function unwrapUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(WRAPPED_SCHEME)) return undefined;
  const rest = uri.slice(WRAPPED_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  try {
    return { server: decodeURIComponent(rest.slice(0, slash)), uri: rest.slice(slash + 1) };
  } catch {
    return undefined;
  }
}

/** URIs offered by more than one server (or that look like our own wrapping) must be wrapped. */
function needsWrapping(values: { server: string; key: string }[]): Set<string> {
  const owners = new Map<string, Set<string>>();
  for (const v of values) {
    const set = owners.get(v.key) ?? new Set<string>();
    set.add(v.server);
    owners.set(v.key, set);
  }
  const out = new Set<string>();
  for (const [key, set] of owners) if (set.size > 1 || key.startsWith(WRAPPED_SCHEME)) out.add(key);
  return out;
}

/**
 * Whether a tool passes the filter now: its server exposed, the tool switched on, the view's rule,
 * visible to models. The catalogue asks it of live tools, and a call asks it again of a dormant one
 * (dormant.ts), because the rules can change while its server is down.
 */
export function toolExposed(filter: ExposureFilter, t: HostTool): boolean {
  if (filter.isServerExposed && !filter.isServerExposed(t.server)) return false;
  if (filter.isToolEnabled && !filter.isToolEnabled(t.server, t.name)) return false;
  if (filter.acceptsTool && !filter.acceptsTool(t)) return false;
  // App-only tools (MCP Apps visibility ["app"]) are for the server's own interface, not for agents.
  return visibleToModel(t);
}

/** Connected, or not started until first use with its cached lists standing in: its first call starts it. */
function offered(s: ServerSnapshot): boolean {
  return s.state.kind === 'connected' || (s.state.kind === 'disabled' && s.state.reason === 'on-first-use');
}

export function buildCatalog(snapshots: readonly ServerSnapshot[], filter: ExposureFilter = {}): Catalog {
  const live = snapshots.filter((s) => offered(s) && (filter.isServerExposed?.(s.name) ?? true));
  // Compared as agents rewrite them (agent-names.ts): two tools Codex would see under one name never meet.
  const toolNames = new AgentToolNames();
  const promptNames = new Set<string>();
  const tools: ExposedTool[] = [];
  const prompts: ExposedPrompt[] = [];
  for (const s of live) {
    for (const t of s.tools) {
      if (!toolExposed(filter, t)) continue;
      const name = toolNames.take(s.name, t.name);
      tools.push({ name, tool: t });
    }
    for (const p of s.prompts) {
      const name = gatewayName(s.name, p.name, promptNames);
      promptNames.add(name);
      prompts.push({ name, prompt: p });
    }
  }
  const resourceList = live.flatMap((s) => s.resources);
  const wrapRes = needsWrapping(resourceList.map((r) => ({ server: r.server, key: r.uri })));
  const templateList = live.flatMap((s) => s.resourceTemplates);
  const wrapTpl = needsWrapping(templateList.map((t) => ({ server: t.server, key: t.uriTemplate })));
  return {
    tools,
    prompts,
    resources: resourceList.map((r) => ({ uri: wrapRes.has(r.uri) ? wrapUri(r.server, r.uri) : r.uri, resource: r })),
    templates: templateList.map((t) => ({
      uriTemplate: wrapTpl.has(t.uriTemplate) ? wrapUri(t.server, t.uriTemplate) : t.uriTemplate,
      template: t,
    })),
    servers: live.map((s) => s.name),
  };
}

/** The text before a template's first `{`: a read of a URI with that prefix goes to that template's server. */
function templatePrefix(t: string): string {
  const i = t.indexOf('{');
  return i < 0 ? t : t.slice(0, i);
}

/**
 * Which server a URI the agent asks for belongs to: a listed URI, a wrapped one, else the server
 * whose template has the longest matching prefix, else the only exposed server.
 */
export function resolveResourceUri(catalog: Catalog, uri: string): { server: string; uri: string } | undefined {
  const listed = catalog.resources.find((r) => r.uri === uri);
  if (listed) return { server: listed.resource.server, uri: listed.resource.uri };
  const wrapped = unwrapUri(uri);
  if (wrapped && catalog.servers.includes(wrapped.server)) return wrapped;
  let best: { server: string; uri: string; len: number } | undefined;
  for (const t of catalog.templates) {
    const prefix = templatePrefix(t.uriTemplate);
    if (prefix.length === 0 || !uri.startsWith(prefix) || (best && best.len >= prefix.length)) continue;
    const inner = unwrapUri(t.uriTemplate) ? unwrapUri(uri) : { server: t.template.server, uri };
    if (inner) best = { ...inner, len: prefix.length };
  }
  if (best) return { server: best.server, uri: best.uri };
  const [only] = catalog.servers;
  if (catalog.servers.length === 1 && only !== undefined) return { server: only, uri };
  return undefined;
}

/** A short fingerprint of one list, so `list_changed` is sent only when what an agent sees changed. */
export function fingerprint(items: readonly unknown[]): string {
  return JSON.stringify(items);
}
