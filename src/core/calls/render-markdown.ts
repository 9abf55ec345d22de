/**
 * Markdown for the read-only result documents (tool results, resource contents, prompt
 * messages). Text content is Markdown already; images become data-URI images the Markdown
 * preview renders; resource links become links the caller decides how to open.
 */
import type { HostContent, PromptGetResult, ResourceReadResult, ToolCallResult } from '../host-api.js';

/** How a resource link should be opened, e.g. a `command:` URI running Read Resource. */
export type LinkFor = (server: string, uri: string) => string;

export interface RenderOptions {
  linkFor: LinkFor;
  /** Inline images larger than this many base64 characters are described instead of shown. */
  maxInlineImageChars?: number;
  /** Data URIs for image blobs written to disk, by blob path (the caller reads the files). */
  blobImages?: ReadonlyMap<string, string>;
}

const DEFAULT_MAX_IMAGE = 8 * 1024 * 1024;

/** A fence longer than any run of backticks in `text`, so content never closes it early. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${f}`;
}

/**
 * Escapes text that came from a server or a config file before it goes into Markdown (the one
 * copy: the tree's tooltips and the status bar use it too). Line breaks are kept. `-` and `.` are
 * escaped only where they would start a list or a rule (`- `, `1. ` at a line start): escaping
 * them everywhere made paths, versions and MIME types in the raw text hard to read.
 */
export function escapeMarkdown(text: string): string {
  return escapeFormatting(text)
    .replace(/^(\s*)-/gm, '$1\\-')
    .replace(/^(\s*\d+)\./gm, '$1\\.');
}

function escapeFormatting(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`);
}

/**
 * For a fragment placed mid-line (a name, a version, a MIME type): formatting escaped, line breaks
 * become spaces. Nothing can start a list there, so "1.2.0" stays as written.
 */
export function escapeInline(text: string): string {
  return escapeFormatting(text).replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

function link(label: string, href: string): string {
  return `[${escapeInline(label)}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

function langFor(mimeType: string | undefined): string {
  if (!mimeType) return '';
  if (mimeType.includes('json')) return 'json';
  if (mimeType === 'text/markdown') return 'markdown';
  if (mimeType.includes('html')) return 'html';
  if (mimeType.includes('xml')) return 'xml';
  if (mimeType.includes('yaml')) return 'yaml';
  if (mimeType.includes('javascript')) return 'javascript';
  if (mimeType.includes('typescript')) return 'typescript';
  if (mimeType.includes('python')) return 'python';
  if (mimeType === 'text/csv') return 'csv';
  return '';
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

function imageMarkdown(alt: string, mimeType: string, data: string, max: number): string {
  if (!/^image\/[\w.+-]+$/.test(mimeType))
    return `_(${escapeInline(mimeType)} content, ${approxBytes(data)} bytes, not shown)_`;
  if (data.length > max)
    return `_(image ${escapeInline(mimeType)}, ${approxBytes(data)} bytes: too large to show inline)_`;
  return `![${escapeInline(alt)}](data:${mimeType};base64,${data.replace(/\s/g, '')})`;
}

function blobLine(
  path: string,
  mimeType: string | undefined,
  size: number | undefined,
  opts: RenderOptions,
  alt: string,
): string {
  const image = opts.blobImages?.get(path);
  const desc = `${mimeType ?? 'binary'}${size !== undefined ? `, ${size} bytes` : ''}`;
  const fileLink = link(path, `file://${path.startsWith('/') ? '' : '/'}${path.replace(/\\/g, '/')}`);
  return image
    ? `![${escapeInline(alt)}](${image})\n\n_Saved to ${fileLink} (${escapeInline(desc)})_`
    : `_Binary content (${escapeInline(desc)}) saved to_ ${fileLink}`;
}

/** One content block as Markdown. */
export function renderContent(server: string, c: HostContent, opts: RenderOptions): string {
  const max = opts.maxInlineImageChars ?? DEFAULT_MAX_IMAGE;
  switch (c.type) {
    case 'text':
      return c.text;
    case 'image':
      return imageMarkdown('image', c.mimeType, c.data, max);
    case 'audio':
      return `_(audio ${escapeInline(c.mimeType)}, ${approxBytes(c.data)} bytes)_`;
    case 'resource_link': {
      const label = c.name && c.name !== c.uri ? `${c.name} (${c.uri})` : c.uri;
      const desc = c.description ? ` — ${escapeInline(c.description)}` : '';
      return `📎 ${link(label, opts.linkFor(server, c.uri))}${desc}`;
    }
    case 'resource': {
      const head = `📄 ${link(c.uri, opts.linkFor(server, c.uri))}${c.mimeType ? ` _(${escapeInline(c.mimeType)})_` : ''}`;
      if (c.text !== undefined) return `${head}\n\n${fence(c.text, langFor(c.mimeType))}`;
      if (c.blobPath) return `${head}\n\n${blobLine(c.blobPath, c.mimeType, undefined, opts, c.uri)}`;
      return head;
    }
  }
}

/** The document for a tool call result. Errors are marked in the title and at the top. */
export function renderToolResult(
  call: { server: string; tool: string; args: Record<string, unknown>; result: ToolCallResult },
  opts: RenderOptions,
): string {
  const { server, tool, args, result } = call;
  const out: string[] = [];
  out.push(result.isError ? `# ❌ ${escapeInline(tool)} failed` : `# ${escapeInline(tool)}`);
  out.push(`_Server **${escapeInline(server)}** · ${Math.round(result.durationMs)} ms_`);
  if (result.isError) out.push('> **Error:** the tool reported an error (`isError: true`). Its message follows.');
  out.push('## Result');
  if (result.content.length === 0) out.push('_(no content)_');
  for (const c of result.content) out.push(renderContent(server, c, opts));
  if (result.structuredContent !== undefined) {
    out.push('## Structured content', fence(JSON.stringify(result.structuredContent, null, 2), 'json'));
  }
  out.push('## Arguments', fence(JSON.stringify(args, null, 2), 'json'));
  return `${out.join('\n\n')}\n`;
}

/** The document for a failed request (the call threw: timeout, connection lost, bad arguments). */
export function renderFailure(what: {
  server: string;
  title: string;
  message: string;
  args?: Record<string, unknown>;
}): string {
  const out = [
    `# ❌ ${escapeInline(what.title)}`,
    `_Server **${escapeInline(what.server)}**_`,
    `> **Error:** ${escapeInline(what.message)}`,
  ];
  if (what.args) out.push('## Arguments', fence(JSON.stringify(what.args, null, 2), 'json'));
  return `${out.join('\n\n')}\n`;
}

/** The document for a resource read. */
export function renderResource(
  read: { server: string; uri: string; result: ResourceReadResult },
  opts: RenderOptions,
): string {
  const out = [`# ${escapeInline(read.uri)}`, `_Server **${escapeInline(read.server)}**_`];
  if (read.result.contents.length === 0) out.push('_(no contents)_');
  for (const c of read.result.contents) {
    if (read.result.contents.length > 1 || c.uri !== read.uri) out.push(`## ${escapeInline(c.uri)}`);
    if (c.text !== undefined) {
      out.push(c.mimeType === 'text/markdown' ? c.text : fence(c.text, langFor(c.mimeType)));
    } else if (c.blobPath) {
      out.push(blobLine(c.blobPath, c.mimeType, c.size, opts, c.uri));
    } else {
      out.push('_(empty)_');
    }
  }
  return `${out.join('\n\n')}\n`;
}

/** The document for a prompt's messages. */
export function renderPrompt(
  p: { server: string; name: string; args: Record<string, string>; result: PromptGetResult },
  opts: RenderOptions,
): string {
  const out = [`# ${escapeInline(p.name)}`, `_Prompt from **${escapeInline(p.server)}**_`];
  if (p.result.description)
    out.push(`> ${escapeMarkdown(p.result.description.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '))}`);
  for (const [i, m] of p.result.messages.entries()) {
    out.push(`## ${i + 1}. ${m.role}`, renderContent(p.server, m.content, opts));
  }
  if (Object.keys(p.args).length > 0) out.push('## Arguments', fence(JSON.stringify(p.args, null, 2), 'json'));
  return `${out.join('\n\n')}\n`;
}

/** Plain text of a prompt's messages for the clipboard: role headers and text, no Markdown chrome. */
export function promptPlainText(result: PromptGetResult): string {
  return result.messages
    .map((m) => {
      const c = m.content;
      const body =
        c.type === 'text'
          ? c.text
          : c.type === 'resource'
            ? (c.text ?? `[resource ${c.uri}]`)
            : c.type === 'resource_link'
              ? `[${c.name ?? c.uri}](${c.uri})`
              : `[${c.type} ${c.mimeType}]`;
      return `${m.role}:\n${body}`;
    })
    .join('\n\n');
}
