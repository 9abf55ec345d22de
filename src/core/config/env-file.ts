/**
 * `envFile` support: a dotenv-style file (KEY=VALUE, `export KEY=VALUE`, `#` comments, single or
 * double quotes; `\n` escapes inside double quotes). Values are taken literally, never expanded.
 */

export interface EnvFileParse {
  values: Record<string, string>;
  /** 1-based line numbers of lines that are neither blank, comments nor KEY=VALUE. */
  badLines: number[];
}

const LINE_RE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)?$/;

export function parseEnvFile(text: string): EnvFileParse {
  // No prototype: a `__proto__=x` line must be a plain (odd) variable, not a prototype change.
  const values = Object.create(null) as Record<string, string>;
  const badLines: number[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    const m = LINE_RE.exec(line);
    if (!m) {
      badLines.push(i + 1);
      continue;
    }
    let raw = (m[2] ?? '').trim();
    let value: string;
    const q = raw[0];
    if (q === '"' || q === "'") {
      // A quoted value may span lines (PEM keys); gather until the closing quote.
      let body = raw.slice(1);
      let end = findClosingQuote(body, q);
      while (end === -1 && i + 1 < lines.length) {
        i++;
        body += `\n${lines[i]}`;
        end = findClosingQuote(body, q);
      }
      const rest = end === -1 ? '' : body.slice(end + 1).trim();
      if (end === -1 || (rest !== '' && !rest.startsWith('#'))) {
        badLines.push(i + 1);
        continue;
      }
      value = body.slice(0, end);
      if (q === '"')
        value = value.replace(
          /\\([nrt"\\])/g,
          (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' })[c] ?? c,
        );
    } else {
      const hash = raw.search(/\s#/);
      if (hash !== -1) raw = raw.slice(0, hash);
      value = raw.trim();
    }
    values[m[1]] = value;
  }
  return { values, badLines };
}

function findClosingQuote(s: string, q: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && q === '"') {
      i++;
      continue;
    }
    if (s[i] === q) return i;
  }
  return -1;
}
