/**
 * What changed in a server's lists between two connections (dev mode restarts, list_changed):
 * a pure differ of tools, resources, resource templates and prompts, and the one-line summary the
 * tree and the log show ("tool `add` added, `echo` schema changed").
 */
import { canonicalJson } from '../config/signature.js';

/** The parts of each list the differ looks at; HostTool/HostResource/... and the SDK's types fit. */
export interface DiffableLists {
  tools: readonly {
    name: string;
    title?: string;
    description?: string;
    inputSchema?: unknown;
    outputSchema?: unknown;
    annotations?: unknown;
  }[];
  resources: readonly { uri: string; name: string; title?: string; description?: string; mimeType?: string }[];
  resourceTemplates: readonly {
    uriTemplate: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
  }[];
  prompts: readonly { name: string; title?: string; description?: string; arguments?: unknown }[];
}

export type ItemKind = 'tool' | 'resource' | 'resource template' | 'prompt';

export interface ListChange {
  kind: ItemKind;
  /** Tool/prompt name, resource URI, template URI template. */
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** For `changed`: which parts, e.g. ['schema', 'description']. */
  parts?: string[];
}

type Fields<T> = [label: string, get: (x: T) => unknown][];

function diffList<T>(
  kind: ItemKind,
  before: readonly T[],
  after: readonly T[],
  key: (x: T) => string,
  fields: Fields<T>,
): ListChange[] {
  const old = new Map(before.map((x) => [key(x), x]));
  const now = new Map(after.map((x) => [key(x), x]));
  const out: ListChange[] = [];
  for (const [name, x] of now) {
    const prev = old.get(name);
    if (!prev) {
      out.push({ kind, name, change: 'added' });
      continue;
    }
    const parts = fields
      .filter(([, get]) => canonicalJson(get(prev) ?? null) !== canonicalJson(get(x) ?? null))
      .map(([label]) => label);
    if (parts.length) out.push({ kind, name, change: 'changed', parts });
  }
  for (const name of old.keys()) if (!now.has(name)) out.push({ kind, name, change: 'removed' });
  return out;
}

type Tool = DiffableLists['tools'][number];
type Res = DiffableLists['resources'][number];
type Tpl = DiffableLists['resourceTemplates'][number];
type Prompt = DiffableLists['prompts'][number];

const TOOL_FIELDS: Fields<Tool> = [
  ['schema', (t) => t.inputSchema],
  ['output schema', (t) => t.outputSchema],
  ['description', (t) => t.description],
  ['title', (t) => t.title],
  ['annotations', (t) => t.annotations],
];
const RESOURCE_FIELDS: Fields<Res> = [
  ['name', (r) => r.name],
  ['description', (r) => r.description],
  ['MIME type', (r) => r.mimeType],
  ['title', (r) => r.title],
];
const TEMPLATE_FIELDS: Fields<Tpl> = [
  ['name', (r) => r.name],
  ['description', (r) => r.description],
  ['MIME type', (r) => r.mimeType],
  ['title', (r) => r.title],
];
const PROMPT_FIELDS: Fields<Prompt> = [
  ['arguments', (p) => p.arguments ?? []],
  ['description', (p) => p.description],
  ['title', (p) => p.title],
];

/** Every change from `before` to `after`, tools first, then resources, templates, prompts. */
export function diffLists(before: DiffableLists, after: DiffableLists): ListChange[] {
  return [
    ...diffList('tool', before.tools, after.tools, (t) => t.name, TOOL_FIELDS),
    ...diffList('resource', before.resources, after.resources, (r) => r.uri, RESOURCE_FIELDS),
    ...diffList(
      'resource template',
      before.resourceTemplates,
      after.resourceTemplates,
      (r) => r.uriTemplate,
      TEMPLATE_FIELDS,
    ),
    ...diffList('prompt', before.prompts, after.prompts, (p) => p.name, PROMPT_FIELDS),
  ];
}

/**
 * `tool \`add\` added, \`echo\` schema changed, prompt \`greet\` removed`: the kind is named once per
 * run of the same kind; "no changes" when there are none.
 */
export function summarizeChanges(changes: readonly ListChange[], max = 12): string {
  if (changes.length === 0) return 'no changes to tools, resources or prompts';
  const parts: string[] = [];
  let lastKind: ItemKind | undefined;
  for (const c of changes.slice(0, max)) {
    const what = c.change === 'changed' ? `${(c.parts ?? []).join(' and ')} changed` : c.change;
    parts.push(`${c.kind === lastKind ? '' : `${c.kind} `}\`${c.name}\` ${what}`);
    lastKind = c.kind;
  }
  if (changes.length > max) parts.push(`and ${changes.length - max} more`);
  return parts.join(', ');
}
