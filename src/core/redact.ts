/**
 * Redaction for logs and tooltips: tokens, credentials in URLs, secret-looking headers and query
 * parameters, and every `env` value of a server config. Over-redacting is fine here; leaking a
 * token into a log a user pastes into a bug report is not.
 */
/**
 * The parts of a server config (config/types.ts `ServerConfig`) that can carry secrets, as a shape
 * of its own: this helper sits below config (ARCHITECTURE.md, "Layers"), and every `ServerConfig`
 * is one of these.
 */
export type RedactableConfig =
  | { type: 'stdio'; args: string[]; env?: Record<string, string> }
  | { type: 'inprocess' }
  | { type: 'sse' | 'http' | 'ws'; url: string; headers?: Record<string, string> };

export const REDACTED = '[redacted]';

/**
 * Header names whose values are credentials: the well-known ones, anything naming a token, secret,
 * password or key (`Ocp-Apim-Subscription-Key`, `DD-APPLICATION-KEY`, `PRIVATE-TOKEN`), and `*-PAT`.
 */
const SECRET_HEADER_RE =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token|x-access-token|x-csrf-token|x-claude-code-ide-authorization)$|(token|secret|password|passwd|api[-_]?key|auth|session|credential|signature)|(^|[-_])(key|pat|pwd|pass)$/i;

/** Query-parameter / key names whose values are credentials. */
const SECRET_KEY_RE =
  /(token|secret|password|passwd|pwd|api[-_]?key|apikey|auth|credential|session|signature|^sig$|private[-_]?key|client[-_]?secret|^code$|^key$|^pat$|(access|account|subscription|application|app|master|signing|encryption|shared[-_]?access|license|storage)[-_]?key$)/i;

/**
 * Names in a `name: value` line (a header, a YAML or log field) whose whole value is a credential.
 * Narrower than SECRET_KEY_RE: `auth` or `session` alone before a colon is mostly prose
 * ("oauth: signing in"), and those lines are our own log messages.
 */
const SECRET_FIELD_RE =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|(token|secret|password|passwd|pwd|api[-_]?key|apikey|credential|private[-_]?key)|(^|[-_])(key|pat|pass)$|(access|account|subscription|application|master|signing|encryption)[-_]?key$/i;

/**
 * `code` is a secret in an OAuth redirect (`?code=…`) but in an error dump it is the error's code:
 * Node prints `code: 'MODULE_NOT_FOUND'`, `code: 'ENOENT'`. Those (UPPER_SNAKE with an underscore,
 * or E and capitals) stay; an authorization code is random mixed-case text and never looks so.
 */
const ERROR_CODE_RE = /^(?:E[A-Z]{2,}|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;

function isErrorCode(key: string, value: string): boolean {
  return key.toLowerCase() === 'code' && ERROR_CODE_RE.test(value);
}

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER_RE.test(name);
}

export function isSecretKey(name: string): boolean {
  return SECRET_KEY_RE.test(name);
}

/** Well-known token shapes, redacted wherever they appear. */
const TOKEN_PATTERNS: RegExp[] = [
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g, // GitHub
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}\b/g, // OpenAI / Anthropic style
  /\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}\b/g, // Stripe
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, // Slack
  /\bhttps:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, // Slack webhook
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}\b/g, // Google API key
  /\bya29\.[0-9A-Za-z_-]{20,}/g, // Google OAuth access token
  /\bglpat-[A-Za-z0-9_-]{16,}\b/g, // GitLab
  /\bnpm_[A-Za-z0-9]{30,}\b/g, // npm
  /\bhf_[A-Za-z0-9]{30,}\b/g, // Hugging Face
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, // SendGrid
  /\bdop_v1_[a-f0-9]{32,}\b/g, // DigitalOcean
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

/** A value after `=` or `:`: quoted (either quote), or a run without separators. */
const VALUE = `(?:"(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|[^&\\s;,"'}\\]]+)`;

/** A port after `-p` (`-p 3000`) is not a password; anything else after `-p` may be (`mysql -p X`). */
const PORT_LIKE = /^\d{1,5}(:\d{1,5})?$/;

/** Bare words that end many sentences before a colon ("X is secret: its value…"); compounds still count. */
const PROSE_FIELD_RE = /^(secret|secrets|token|tokens|credential|credentials|key|keys)$/i;

const FIELD_RE = /(^|[\s{,;(])([A-Za-z][\w.-]*)(\s*:[ \t]*|[ \t]*=[ \t]*(?=[A-Za-z]+[ \t]))/g;

/**
 * `name: value` and `name=value` fields whose name is a credential header or field lose the rest
 * of their line ("Authorization: bearer x", "authorization=bearer x", "password: x", "X-PAT: x").
 * Quoted values are left to the quoted-pair rule, which keeps the text around them.
 */
function redactFields(s: string): string {
  return s
    .split(/(\r?\n)/)
    .map((line) => {
      for (const m of line.matchAll(FIELD_RE)) {
        const valueAt = m.index + m[0].length;
        const rest = line.slice(valueAt);
        if (
          !SECRET_FIELD_RE.test(m[2]!) ||
          PROSE_FIELD_RE.test(m[2]!) ||
          rest === '' ||
          /^["']/.test(rest) ||
          rest.startsWith(REDACTED)
        )
          continue;
        return `${line.slice(0, valueAt)}${REDACTED}`;
      }
      return line;
    })
    .join('');
}

/**
 * Redacts secrets inside free text (log lines, error messages, command lines): bearer/basic
 * credentials, `key=value`, `key: value` and `"key": "value"` pairs with secret-looking keys,
 * `--token X` / `-p X` style flags, URL credentials, PEM private keys and well-known token formats.
 * Over-redacting is the accepted cost: a missed secret ends up in a pasted bug report.
 */
export function redactString(s: string): string {
  let out = learned.size ? redactKnownValues(s, [...learned]) : s;
  // PEM private keys, whole (or to the end when the END line is missing).
  out = out.replace(
    /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END \1PRIVATE KEY-----|$)/g,
    `${REDACTED} private key`,
  );
  // Credentials in URLs: scheme://user:pass@host, the password may hold '@' or '/' (the last '@'
  // of the run ends it); scheme://token@host. `host:3000/@scope` is a port, not a password.
  out = out.replace(
    /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*):(?!\d{1,5}(?:[/?#\s]|$))(\S*)@/gi,
    (_m, scheme: string, user: string) => `${scheme}${user ? REDACTED : ''}:${REDACTED}@`,
  );
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:[\]]+)@/gi, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  out = redactFields(out);
  // Authorization schemes anywhere else; `bearer` in any case (Basic/Token/Digest capitalised only:
  // in lower case they are ordinary words).
  out = out.replace(
    /\b(bearer)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi,
    (_m, scheme: string) => `${scheme} ${REDACTED}`,
  );
  out = out.replace(
    /\b(Basic|Token|Digest)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]+/g,
    (_m, scheme: string) => `${scheme} ${REDACTED}`,
  );
  // JSON-ish and Python-ish "key": "value" / 'key': 'value' (also `key: "value"` in YAML).
  // The key starts at a quote or at the start of a word, never inside one: a long token-like line
  // would otherwise be tried at every character (quadratic).
  out = out.replace(
    /(?:(["'])|(?<![\w.-]))([\w.-]+)\1?(\s*:\s*)(["'])((?:(?!\4)[^\\]|\\.)*)\4/g,
    (m, q: string | undefined, key: string, sep: string, vq: string, value: string) =>
      isSecretKey(key) && !isErrorCode(key, value) && (q === undefined || m.startsWith(`${q}${key}${q}`))
        ? `${q ?? ''}${key}${q ?? ''}${sep}${vq}${REDACTED}${vq}`
        : m,
  );
  // key=value (query strings, env assignments, `aws_secret_access_key = X`, --api-key=xyz), quoted or not.
  out = out.replace(
    new RegExp(`([?&;\\s,{(\\[]|^|--?)([\\w.-]+)(\\s*=\\s*)(${VALUE})`, 'g'),
    (m, pre: string, key: string, eq: string, raw: string) => {
      // `(key=value)`: the bracket that opened before the key closes after the value, and is kept.
      const quoted = /^["']/.test(raw);
      const close = !quoted && pre === '(' ? raw.indexOf(')') : -1;
      const value = close >= 0 ? raw.slice(0, close) : raw;
      const rest = close >= 0 ? raw.slice(close) : '';
      // `[redacted` (the value stops before `]`): already redacted by an earlier pass.
      if (
        !isSecretKey(key) ||
        value.includes(REDACTED.slice(0, -1)) ||
        isErrorCode(key, value.replace(/^(["'])(.*)\1$/, '$2'))
      )
        return m;
      const q = quoted ? raw[0]! : '';
      return `${pre}${key}${eq}${q}${REDACTED}${q}${rest}`;
    },
  );
  // "--token xyz" style flags
  out = out.replace(
    /(--?[\w-]*(?:token|secret|password|passwd|api[-_]?key|auth|credential)[\w-]*)(\s+)(?!-)(?!\[redacted\])(\S+)/gi,
    (_m, flag: string, sp: string) => `${flag}${sp}${REDACTED}`,
  );
  // `-p X` (mysql, sshpass, many CLIs) unless X is a port.
  out = out.replace(
    /(^|\s)(-p)(\s+)(?!-)(?!\[redacted\])(\S+)/g,
    (m, pre: string, flag: string, sp: string, value: string) =>
      PORT_LIKE.test(value) ? m : `${pre}${flag}${sp}${REDACTED}`,
  );
  return redactTokens(out);
}

/** Shorter values are too likely to be ordinary words to scrub from every line. */
const MIN_KNOWN_SECRET_LENGTH = 6;

/** Secrets learned at run time (a headersHelper's header values): `redactString` scrubs them everywhere. */
const learned = new Set<string>();
const MAX_LEARNED = 512;

/** Registers values every later `redactString` replaces; for `Bearer xyz` the credential too. */
export function learnSecretValues(values: Iterable<string>): void {
  for (const v of values) {
    for (const form of [v, v.replace(/^[A-Za-z][\w-]*\s+/, '')]) {
      if (form.length < MIN_KNOWN_SECRET_LENGTH || learned.has(form)) continue;
      // Oldest first out: a helper that rotates tokens every minute must not grow this forever.
      if (learned.size >= MAX_LEARNED) learned.delete(learned.values().next().value!);
      learned.add(form);
    }
  }
}

/** A server's env and header values: whatever an error or a log line repeats of them is a secret. */
export function secretValuesOf(config: RedactableConfig): string[] {
  if (config.type === 'stdio') return Object.values(config.env ?? {});
  if (config.type === 'inprocess') return [];
  return Object.values(config.headers ?? {});
}

/**
 * `text` with each of `values` (the longest first) replaced wherever it appears, also when it is
 * echoed line by line or JSON-escaped (a header value with CR/LF in an HTTP client's error).
 */
export function redactKnownValues(text: string, values: readonly string[]): string {
  const forms = new Set<string>();
  for (const v of values) {
    forms.add(v);
    forms.add(JSON.stringify(v).slice(1, -1));
    for (const part of v.split(/\r?\n|\r/)) forms.add(part.trim());
  }
  let out = text;
  for (const f of [...forms].filter((x) => x.length >= MIN_KNOWN_SECRET_LENGTH).sort((a, b) => b.length - a.length)) {
    if (out.includes(f)) out = out.split(f).join(REDACTED);
  }
  return out;
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
    const flag =
      /^--?[\w-]+$/.test(a) &&
      (isSecretKey(a.replace(/^-+/, '')) || (a === '-p' && !PORT_LIKE.test(args[i + 1] ?? '')));
    out.push(redactString(a));
    if (flag && i + 1 < args.length && !args[i + 1]!.startsWith('-')) {
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
export function redactConfig<T extends RedactableConfig>(config: T): T {
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
