/**
 * Credentials written into arguments and URLs (`--api-key sk-…`, `--token=…`, `?api_key=…`,
 * `user:pass@host`, an `Authorization: Bearer …` argument), found exactly as redaction finds them
 * (./redact.ts), and replaced by `${NAME}` references. Used where an entry leaves the user's
 * machine or reaches a shared file: import into `.mcp.json`, copy-as lines and snippets.
 */
import { REDACTED, redactArgs, redactString } from './redact.js';

export interface FoundSecret {
  /** The reference's variable name, unique within one call: `API_KEY`, `URL_PASSWORD`. */
  name: string;
  value: string;
  /** "argument 3", "URL". */
  where: string;
}

const SCHEME_WORDS = /^(bearer|basic|token|digest)$/i;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function variableName(s: string): string {
  return (
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'SECRET'
  );
}

/** The name a secret at the end of `before` goes by: the last word that is not an auth scheme or a URL scheme. */
function nameFrom(before: string, previousWord: string | undefined): string {
  if (/:\/\/$/.test(before)) return 'URL_USER';
  if (/:\/\/[^/@\s]*:$/.test(before)) return 'URL_PASSWORD';
  // "Bearer " before a value is its scheme, not its name; "token=" is a name.
  const words = [...before.matchAll(/([A-Za-z][A-Za-z0-9_-]*)(\s*)/g)]
    .filter((m) => !(SCHEME_WORDS.test(m[1]!) && m[2] !== ''))
    .map((m) => m[1]!);
  const w = words.at(-1) ?? previousWord?.replace(/^-+/, '');
  return variableName(w ?? 'SECRET');
}

class Names {
  private readonly used = new Set<string>();
  constructor(taken: Iterable<string>) {
    for (const t of taken) this.used.add(t);
  }
  take(base: string): string {
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`;
    this.used.add(name);
    return name;
  }
}

/**
 * `word` with each span redaction hides replaced by a reference. When the redacted text cannot be
 * lined up with the original, the whole word becomes one reference: over-hiding is the safe side.
 */
function referenceWord(
  word: string,
  redacted: string,
  where: string,
  previousWord: string | undefined,
  names: Names,
  found: FoundSecret[],
): string {
  if (redacted === word || !redacted.includes(REDACTED)) return word;
  const parts = redacted.split(REDACTED);
  const m = new RegExp(`^${parts.map(escapeRe).join('([\\s\\S]+?)')}$`).exec(word);
  if (!m) {
    const name = names.take(nameFrom('', previousWord));
    found.push({ name, value: word, where });
    return `\${${name}}`;
  }
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    const value = m[i]!;
    if (value.startsWith('${')) {
      out += value + parts[i]!;
      continue;
    }
    const name = names.take(nameFrom(out, previousWord));
    found.push({ name, value, where });
    out += `\${${name}}${parts[i]!}`;
  }
  return out;
}

/** Arguments with their credentials as references; `taken` names are not reused. */
export function referenceSecretsInArgs(
  args: readonly string[],
  taken: Iterable<string> = [],
): { args: string[]; found: FoundSecret[] } {
  const names = new Names(taken);
  const found: FoundSecret[] = [];
  const redacted = redactArgs(args);
  const out = args.map((a, i) => referenceWord(a, redacted[i]!, `argument ${i + 1}`, args[i - 1], names, found));
  return { args: out, found };
}

/** A URL with user, password and secret query values as references. */
export function referenceSecretsInUrl(
  url: string,
  taken: Iterable<string> = [],
): { url: string; found: FoundSecret[] } {
  const found: FoundSecret[] = [];
  return { url: referenceWord(url, redactString(url), 'URL', undefined, new Names(taken), found), found };
}
