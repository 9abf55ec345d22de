/** Human-readable output: aligned tables, states, tool result content. */
import type { HostContent, ServerSnapshot } from '../core/host-api.js';
import { describeTarget, type ServerDefinition } from '../core/config/index.js';
import { revealMisleadingUnicode } from '../core/capabilities/index.js';
import { ConnectionStates } from '../core/connection/index.js';

/**
 * A server-chosen identifier (tool, prompt, resource name) for a terminal: bidi controls,
 * zero-width and tag characters shown as `\u{…}` so the line cannot be visually reordered or hide text.
 */
export function visible(text: string): string {
  return revealMisleadingUnicode(text, (cp) => `\\u{${cp.toString(16).toUpperCase()}}`);
}

/** JSON text with the same characters as JSON escapes: the data is unchanged, the display is safe. */
export function safeJson(value: unknown): string {
  return revealMisleadingUnicode(JSON.stringify(value, null, 2), (cp) =>
    String.fromCodePoint(cp)
      .split('')
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}

/** Columns padded to the widest cell; the last column is never padded. */
export function table(rows: string[][], header?: string[]): string {
  const all = header ? [header, ...rows] : rows;
  if (all.length === 0) return '';
  const widths: number[] = [];
  for (const r of all) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return (
    all
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

export function transportOf(def: ServerDefinition): string {
  return def.config.type;
}

/** What a server runs or connects to, for one table cell (secrets redacted, like everywhere else). */
export function targetOf(def: ServerDefinition): string {
  return describeTarget(def.config);
}

/** `connected (120 ms)`, `failed: <message>`, ... */
export function stateText(s: ServerSnapshot['state']): string {
  switch (s.kind) {
    case 'connected':
      return `connected (${s.connectMs} ms${s.protocolVersion ? `, MCP ${s.protocolVersion}` : ''})`;
    case 'failed':
      return `failed: ${s.error.message}`;
    case 'needs-auth':
      return `needs authentication: ${s.message}`;
    case 'disabled':
      return `disabled (${s.reason}${s.message ? `: ${s.message}` : ''})`;
    default:
      return ConnectionStates.label(s);
  }
}

/** The error a snapshot carries, if any (failed or needs-auth). */
export function stateError(
  s: ServerSnapshot['state'],
  server = 'SERVER',
): { message: string; hint?: string; code?: string } | undefined {
  if (s.kind === 'failed') return s.error;
  if (s.kind === 'needs-auth')
    return { code: 'needs-auth', message: s.message, hint: `Sign in with: mcp-host auth ${server}` };
  if (s.kind === 'disabled' && s.message) return { code: 'disabled', message: s.message };
  return undefined;
}

/** One content block as plain text: text verbatim, everything else as a one-line summary. */
export function contentText(c: HostContent): string {
  switch (c.type) {
    case 'text':
      return c.text;
    case 'image':
    case 'audio':
      return `[${c.type} ${c.mimeType}, ${Math.floor((c.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${c.uri}${c.name ? ` (${c.name})` : ''}]`;
    case 'resource':
      if (c.text !== undefined) return c.text;
      if (c.blobPath !== undefined) return `[resource ${c.uri} saved to ${c.blobPath}]`;
      return `[resource ${c.uri}]`;
  }
}

/** First line of `text`, cut to `max` characters (for table cells). */
export function oneLine(text: string | undefined, max = 80): string {
  const line = (text ?? '').split(/\r?\n/, 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
