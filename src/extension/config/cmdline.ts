/**
 * Input helpers for `Add Server…`, free of `vscode`: splitting a typed command line the way a
 * POSIX shell would (quotes and backslashes, no expansion), suggesting and validating names and
 * URLs.
 */

/** Splits `node "my server.js" --flag 'a b'` into words. Throws on an unclosed quote. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} quote`);
  if (inWord) words.push(cur);
  return words;
}

/** Returns an error message for the input box, or undefined when the line is usable. */
export function validateCommandLine(line: string): string | undefined {
  try {
    const words = splitCommandLine(line);
    if (words.length === 0)
      return 'Type the command that starts the server, e.g. npx -y @modelcontextprotocol/server-everything';
    return undefined;
  } catch (e) {
    return `Cannot read this command line: ${(e as Error).message}`;
  }
}

export function validateServerUrl(text: string, type: 'http' | 'sse' | 'ws'): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'Type a full URL, e.g. https://example.com/mcp';
  }
  const ok = type === 'ws' ? ['ws:', 'wss:'] : ['http:', 'https:'];
  if (!ok.includes(url.protocol))
    return `A ${type === 'ws' ? 'WebSocket' : 'HTTP'} server URL starts with ${ok.join(' or ')}`;
  return undefined;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function validateServerName(name: string, taken: ReadonlySet<string>): string | undefined {
  if (!name) return 'Give the server a name';
  if (!NAME_RE.test(name)) return 'Use letters, digits, ".", "_" and "-" (starting with a letter or digit)';
  if (name.length > 40) return 'Keep the name under 40 characters (tool names are limited to 64)';
  if (taken.has(name)) return `A server named "${name}" already exists`;
  return undefined;
}

/** A readable default name: the package or host the user typed, made name-safe and unique. */
export function suggestServerName(source: string, taken: ReadonlySet<string>): string {
  let base = '';
  try {
    const url = new URL(source);
    base = url.hostname.replace(/^(www|api|mcp)\./, '').split('.')[0] ?? '';
  } catch {
    const words = splitSafe(source);
    // `npx -y @scope/server-x` names the package; `node path/to/x/dist/index.js` names a folder.
    const target = words.slice(1).find((w) => !w.startsWith('-')) ?? words[0] ?? '';
    const segments = target
      .replace(/@[^@/]*$/, '')
      .split(/[\\/]/)
      .filter(Boolean);
    const meaningful = segments.filter(
      (s) =>
        !/^(index|main|cli|server)\.(m?js|c?js|ts|py)$/.test(s) &&
        !['dist', 'build', 'lib', 'src', 'bin', 'node_modules'].includes(s),
    );
    base = (meaningful.pop() ?? words[0] ?? '')
      .replace(/\.(m?js|c?js|ts|py)$/, '')
      .replace(/^((server|mcp)-)+|(-(server|mcp))+$/g, '');
  }
  base =
    base
      .replace(/[^A-Za-z0-9_.-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 30) || 'server';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}

function splitSafe(line: string): string[] {
  try {
    return splitCommandLine(line);
  } catch {
    return line.split(/\s+/);
  }
}
