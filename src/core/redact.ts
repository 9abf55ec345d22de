/**
 * Redaction for logs and tooltips: tokens, credentials in URLs, secret-looking headers and query
 * parameters, and every `env` value of a server config. Over-redacting is fine here; leaking a
 * token into a log a user pastes into a bug report is not.
 */
import type { ServerConfig } from './config/types.js';

export const REDACTED = '[redacted]';

/** Header names whose values are credentials. */
const SECRET_HEADER_RE = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-access-token|x-csrf-token|x-claude-code-ide-authorization)$|(token|secret|password|passwd|api[-_]?key|auth|session|credential|signature)/i;

/** Query-parameter / key names whose values are credentials. */
const SECRET_KEY_RE = /(token|secret|password|passwd|pwd|api[-_]?key|apikey|auth|credential|session|signature|^sig$|private[-_]?key|client[-_]?secret|^code$|^key$)/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER_RE.test(name);
}

export function isSecretKey(name: string): boolean {
  return SECRET_KEY_RE.test(name);
}

/** Well-known token shapes, redacted wherever they appear. */
const TOKEN_PATTERNS: RegExp[] = [
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g, // GitHub
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}\b/g, // OpenAI / Anthropic / Stripe style
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}\b/g, // Google API key
  /\bglpat-[A-Za-z0-9_-]{16,}\b/g, // GitLab
  /\bnpm_[A-Za-z0-9]{30,}\b/g, // npm
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\b/g, // JWT
];

/** Removes user:password from a URL and secret query values; non-URLs come back through redactString. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redactString(url);
  }
  if (u.username || u.password) {
    u.username = u.username ? REDACTED : '';
    u.password = u.password ? REDACTED : '';
  }
  for (const key of [...u.searchParams.keys()]) {
    if (isSecretKey(key)) u.searchParams.set(key, REDACTED);
  }
  if (u.hash && /(token|secret|code)=/i.test(u.hash)) u.hash = `#${REDACTED}`;
  // URLSearchParams percent-encodes the brackets; put them back so the marker reads well.
  return redactTokens(u.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED));
}

function redactTokens(s: string): string {
  let out = s;
  for (const re of TOKEN_PATTERNS) out = out.replace(re, REDACTED);
  return out;
}

/**
 * Redacts secrets inside free text (log lines, error messages, command lines): bearer/basic
 * credentials, `key=value` and `"key": "value"` pairs with secret-looking keys, `--token X`
 * style flags, URL credentials and well-known token formats.
 */
export function redactString(s: string): string {
  let out = s;
  // Credentials in URLs: scheme://user:pass@host
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]+)(?::([^\s/@]*))?@/gi, (_m, scheme: string, _user: string, pass: string | undefined) =>
    pass !== undefined ? `${scheme}${REDACTED}:${REDACTED}@` : `${scheme}${REDACTED}@`,
  );
  // Header lines ("Authorization: Bearer x", "Cookie: a=b; c=d"): the whole value goes.
  out = out.replace(
    /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-access-token|x-claude-code-ide-authorization)(\s*:\s*)(?!\s*")([^\r\n]+)/gi,
    (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`,
  );
  // Authorization schemes anywhere else.
  out = out.replace(/\b(Bearer|Basic|Token|Digest)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/g, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  // JSON-ish "key": "value"
  out = out.replace(/("([\w.-]+)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (m, head: string, key: string) => (isSecretKey(key) ? `${head}"${REDACTED}"` : m));
  // key=value (query strings, env assignments, CLI flags like --api-key=xyz)
  out = out.replace(/([?&;\s]|^|--?)([\w.-]+)=([^&\s;"']+)/g, (m, pre: string, key: string) => (isSecretKey(key) ? `${pre}${key}=${REDACTED}` : m));
  // "--token xyz" style flags
  out = out.replace(/(--?[\w-]*(?:token|secret|password|api[-_]?key|auth)[\w-]*)(\s+)(?!-)(\S+)/gi, (_m, flag: string, sp: string) => `${flag}${sp}${REDACTED}`);
  return redactTokens(out);
}

/** Copy of the headers with credential values replaced (the auth scheme is kept for context). */
export function redactHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => {
      if (!isSecretHeader(k)) return [k, redactString(v)];
      const scheme = /^(Bearer|Basic|Token|Digest)\s/i.exec(v);
      return [k, scheme ? `${scheme[1]} ${REDACTED}` : REDACTED];
    }),
  );
}

/** Command-line arguments with values of secret-looking flags redacted (`--token X`, `--api-key=X`). */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const flag = /^--?[\w-]+$/.test(a) && isSecretKey(a.replace(/^-+/, ''));
    out.push(redactString(a));
    if (flag && i + 1 < args.length && !args[i + 1].startsWith('-')) {
      out.push(REDACTED);
      i++;
    }
  }
  return out;
}

/**
 * A copy of a server config safe to show: every `env` value hidden (the names stay, they help),
 * secret headers and URL credentials hidden, secret-looking arguments hidden.
 */
export function redactConfig<T extends ServerConfig>(config: T): T {
  switch (config.type) {
    case 'stdio':
      return {
        ...config,
        args: redactArgs(config.args),
        ...(config.env ? { env: Object.fromEntries(Object.keys(config.env).map((k) => [k, REDACTED])) } : {}),
      };
    case 'inprocess':
      return config;
    default:
      return {
        ...config,
        url: redactUrl(config.url),
        ...(config.headers ? { headers: redactHeaders(config.headers) } : {}),
      };
  }
}

/**
 * Deep copy of any JSON-like value with secret-keyed fields hidden and strings redacted; for
 * logging request/response objects. `env` objects lose all their values.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => {
        if (k === 'env' && v && typeof v === 'object' && !Array.isArray(v)) {
          return [k, Object.fromEntries(Object.keys(v).map((n) => [n, REDACTED]))];
        }
        if (k === 'headers' && v && typeof v === 'object' && !Array.isArray(v)) {
          return [k, redactHeaders(Object.fromEntries(Object.entries(v).map(([h, x]) => [h, String(x)])))];
        }
        if (isSecretKey(k) && (typeof v === 'string' || typeof v === 'number')) return [k, REDACTED];
        return [k, redactValue(v, depth + 1)];
      }),
    );
  }
  return value;
}

/** Shorter values are too common (e.g. "true", a port) to replace in text without mangling it. */
const MIN_KNOWN_SECRET = 6;

/**
 * Replaces every literal occurrence of known secret values (a token just issued, a server's own
 * env and header values) with the marker: the one copy used by auth errors and server logs.
 */
export function redactKnown(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= MIN_KNOWN_SECRET) out = out.split(s).join(REDACTED);
  return out;
}

/** The literal values of a server's env (stdio) or headers (remote): what its stderr might echo. */
export function configSecretValues(config: ServerConfig | undefined): string[] {
  if (!config || config.type === 'inprocess') return [];
  return Object.values((config.type === 'stdio' ? config.env : config.headers) ?? {});
}
