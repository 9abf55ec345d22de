/**
 * Copy-as builders: a tool call as an `mcp-host call` command line, a server as a `claude mcp add`
 * line or as `.mcp.json` JSON. Pure string work; the editor layer puts the result on the clipboard.
 *
 * Servers are built from the entry as written in its file (variables unexpanded), and any literal
 * value that could be a credential (every env value, secret-looking headers, credentials in
 * arguments and the URL as redaction finds them) is replaced by a `${NAME}` reference: a copied
 * line must never carry a secret.
 */
import { isSecretHeader } from '../redact.js';
import { referenceSecretsInArgs, referenceSecretsInUrl } from '../secret-references.js';
import { quoteLine, quoteWord, type Shell } from './shell-quote.js';

export type { Shell } from './shell-quote.js';

/** Quotes one word for a POSIX shell: bare when safe, else single-quoted (`'` as `'\''`). */
export function shellQuote(word: string): string {
  return quoteWord(word, 'posix');
}

export function shellLine(words: readonly string[], shell: Shell = 'posix'): string {
  return quoteLine(words, shell);
}

/** `mcp-host call SERVER TOOL --args '{…}'` (arguments omitted when empty). */
export function mcpHostCallLine(
  server: string,
  tool: string,
  args: Record<string, unknown>,
  opts: { workspace?: string; timeoutMs?: number; shell?: Shell } = {},
): string {
  const words = ['mcp-host', 'call', server, tool];
  if (Object.keys(args).length) words.push('--args', JSON.stringify(args));
  if (opts.timeoutMs !== undefined) words.push('--timeout', String(opts.timeoutMs));
  if (opts.workspace) words.push('--workspace', opts.workspace);
  return shellLine(words, opts.shell);
}

/** A server entry as written in a config file (the keys this builder uses). */
export interface WrittenEntry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string | number | boolean>;
  url?: string;
  headers?: Record<string, string>;
}

const hasReference = (v: string): boolean => /\$\{[^}]+\}/.test(v);

/** `GITHUB_TOKEN` from `x-github-token`, for a header's reference. */
function variableName(s: string): string {
  return (
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'VALUE'
  );
}

/**
 * The entry with literal secrets turned into references: each env value that is not already a
 * reference becomes `${KEY}`; a secret header keeps its scheme (`Bearer ${AUTHORIZATION}`);
 * `--api-key sk-…` becomes `--api-key ${API_KEY}`, `user:pass@` `${URL_USER}:${URL_PASSWORD}@`.
 */
export function withSecretReferences(e: WrittenEntry): WrittenEntry {
  const out: WrittenEntry = { ...e };
  if (e.env) {
    out.env = Object.fromEntries(
      Object.entries(e.env).map(([k, v]) => [k, typeof v === 'string' && hasReference(v) ? v : `\${${k}}`]),
    );
  }
  if (e.headers) {
    out.headers = Object.fromEntries(
      Object.entries(e.headers).map(([k, v]) => {
        if (!isSecretHeader(k) || hasReference(v)) return [k, v];
        const scheme = /^(Bearer|Basic|Token)\s+/i.exec(v);
        return [k, `${scheme ? scheme[0] : ''}\${${variableName(k)}}`];
      }),
    );
  }
  const taken = [...Object.keys(e.env ?? {}), ...Object.keys(e.headers ?? {}).map(variableName)];
  if (e.args) out.args = referenceSecretsInArgs(e.args, taken).args;
  if (e.url) out.url = referenceSecretsInUrl(e.url, taken).url;
  return out;
}

function transportOf(e: WrittenEntry): 'stdio' | 'sse' | 'http' | 'ws' {
  if (e.command !== undefined) return 'stdio';
  const t = e.type;
  if (t === 'sse' || t === 'ws') return t;
  if (t === 'http' || t === 'streamableHttp' || t === 'streamable-http') return 'http';
  if (e.url && /^wss?:/i.test(e.url)) return 'ws';
  return e.url && /\/sse\/?$/i.test(e.url.split(/[?#]/)[0]!) ? 'sse' : 'http';
}

/**
 * `claude mcp add --transport stdio NAME -e K=${K} -- CMD ARGS…` or
 * `claude mcp add --transport http NAME URL -H 'Authorization: Bearer ${AUTHORIZATION}'`.
 */
export function claudeMcpAddLine(
  name: string,
  entry: WrittenEntry,
  opts: { scope?: 'local' | 'project' | 'user'; shell?: Shell } = {},
): string {
  const e = withSecretReferences(entry);
  const t = transportOf(e);
  const words = ['claude', 'mcp', 'add', '--transport', t];
  if (opts.scope) words.push('--scope', opts.scope);
  words.push(name);
  if (t === 'stdio') {
    for (const [k, v] of Object.entries(e.env ?? {})) words.push('-e', `${k}=${String(v)}`);
    words.push('--', e.command!, ...(e.args ?? []));
  } else {
    words.push(e.url ?? '');
    for (const [k, v] of Object.entries(e.headers ?? {})) words.push('-H', `${k}: ${v}`);
  }
  return shellLine(words, opts.shell);
}

/** `{"mcpServers": {NAME: {...}}}` in Claude Code's `.mcp.json` format, two-space indented. */
export function mcpJsonSnippet(name: string, entry: WrittenEntry): string {
  const e = withSecretReferences(entry);
  const t = transportOf(e);
  const server: Record<string, unknown> =
    t === 'stdio'
      ? {
          type: 'stdio',
          command: e.command,
          args: e.args ?? [],
          ...(e.env && Object.keys(e.env).length ? { env: e.env } : {}),
        }
      : { type: t, url: e.url, ...(e.headers && Object.keys(e.headers).length ? { headers: e.headers } : {}) };
  return JSON.stringify({ mcpServers: { [name]: server } }, null, 2);
}
