/**
 * Turns what a server lists into what the host presents: sanitised text, qualified tool names,
 * schemas passed through (stripped of misleading Unicode), annotations kept.
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';
import type { HostPrompt, HostResource, HostResourceTemplate, HostTool, ToolAnnotations } from '../host-data.js';
import { toolUiOf } from '../app-meta.js';
import { toolUpstreamOf } from '../upstream-meta.js';
import { qualifiedToolName } from '../naming.js';
import { sanitizeDeep, sanitizeLabel, sanitizeText } from './sanitize.js';

function optionalText(text: string | undefined): string | undefined {
  return text === undefined ? undefined : sanitizeText(text);
}

/** Titles are one line wherever they are shown (tree rows, tooltips, pickers). */
function optionalLabel(text: string | undefined): string | undefined {
  return typeof text === 'string' ? sanitizeLabel(text) : undefined;
}

/** Shared by every tool that declares no annotations (most do not): frozen, since it is shared. */
const NO_ANNOTATIONS: ToolAnnotations = Object.freeze({});

function annotationsOf(tool: Tool): ToolAnnotations {
  if (!tool.annotations) return NO_ANNOTATIONS;
  const a = tool.annotations;
  const out: ToolAnnotations = {};
  if (a.title !== undefined) out.title = sanitizeLabel(a.title);
  // Only real booleans: a hint a server sent as "false" (a string) must not read as true.
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof a[key] === 'boolean') out[key] = a[key];
  }
  return out;
}

/**
 * Wraps one server's tools. `taken` holds the qualified names already used in the host (other
 * servers); it is not modified, but names given to earlier tools of this list are avoided too.
 * Tools with an empty name are dropped (they cannot be called).
 */
/**
 * One object per distinct schema within a list: servers often give many tools the same schema
 * (the empty object, one shared argument shape), and each stays in memory as long as the server
 * is connected; a shared object also shares its compiled validator (keyed by identity). Schemas
 * are read-only for everyone after this (nothing writes to one; freezing them cost 40% more wrap
 * time on 2,000 tools).
 */
function schemaInterner(): (schema: unknown) => Record<string, unknown> {
  const seen = new Map<string, Record<string, unknown>>();
  return (schema) => {
    const clean = sanitizeDeep(schema) as Record<string, unknown>;
    const key = JSON.stringify(clean);
    const hit = seen.get(key);
    if (hit) return hit;
    seen.set(key, clean);
    return clean;
  };
}

export function wrapTools(server: string, tools: Tool[], taken: Set<string>): HostTool[] {
  const used = new Set(taken);
  const intern = schemaInterner();
  const out: HostTool[] = [];
  for (const tool of tools) {
    if (typeof tool.name !== 'string' || tool.name === '') continue;
    const qualifiedName = qualifiedToolName(server, tool.name, used);
    used.add(qualifiedName);
    const wrapped: HostTool = {
      server,
      name: tool.name,
      qualifiedName,
      description: sanitizeText(tool.description ?? ''),
      inputSchema: intern(tool.inputSchema ?? { type: 'object' }),
      annotations: annotationsOf(tool),
    };
    const title = optionalLabel(tool.title ?? tool.annotations?.title);
    if (title !== undefined) wrapped.title = title;
    const support = tool.execution?.taskSupport;
    if (support === 'required' || support === 'optional') wrapped.taskSupport = support;
    if (tool.outputSchema) wrapped.outputSchema = intern(tool.outputSchema);
    const ui = toolUiOf(tool._meta);
    if (ui) wrapped.ui = ui;
    const upstream = toolUpstreamOf(tool._meta);
    if (upstream) wrapped.upstream = { server: sanitizeLabel(upstream.server), tool: sanitizeLabel(upstream.tool) };
    out.push(wrapped);
  }
  return out;
}

export function wrapResources(server: string, resources: Resource[]): HostResource[] {
  return resources.map((r) => {
    const out: HostResource = { server, uri: r.uri, name: sanitizeLabel(r.name ?? r.uri) };
    const title = optionalLabel(r.title);
    if (title !== undefined) out.title = title;
    const description = optionalText(r.description);
    if (description !== undefined) out.description = description;
    if (r.mimeType !== undefined) out.mimeType = r.mimeType;
    return out;
  });
}

export function wrapResourceTemplates(server: string, templates: ResourceTemplateType[]): HostResourceTemplate[] {
  return templates.map((t) => {
    const out: HostResourceTemplate = {
      server,
      uriTemplate: t.uriTemplate,
      name: sanitizeLabel(t.name ?? t.uriTemplate),
    };
    const title = optionalLabel(t.title);
    if (title !== undefined) out.title = title;
    const description = optionalText(t.description);
    if (description !== undefined) out.description = description;
    if (t.mimeType !== undefined) out.mimeType = t.mimeType;
    return out;
  });
}

export function wrapPrompts(server: string, prompts: Prompt[]): HostPrompt[] {
  return prompts.map((p) => {
    const out: HostPrompt = {
      server,
      name: p.name,
      arguments: (p.arguments ?? []).map((a) => {
        const arg: HostPrompt['arguments'][number] = { name: a.name };
        const description = optionalText(a.description);
        if (description !== undefined) arg.description = description;
        if (a.required !== undefined) arg.required = a.required === true;
        return arg;
      }),
    };
    const title = optionalLabel(p.title);
    if (title !== undefined) out.title = title;
    const description = optionalText(p.description);
    if (description !== undefined) out.description = description;
    return out;
  });
}
