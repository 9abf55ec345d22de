/**
 * Quoting of one word for the shell a copied line will be pasted into. POSIX quoting pasted into
 * PowerShell or cmd splits words, or worse runs part of them (`;`, `&`, `$(...)` mean something
 * else there), so each shell gets its own rules.
 *
 * Limits: PowerShell before 7.3 drops embedded `"` when it passes an argument to a native program
 * (a JSON `--args` value); cmd has no way to quote `%` or `!` inside double quotes, so those are
 * written outside them with `^`, which works at the interactive prompt, not in a batch file.
 */
export type Shell = 'posix' | 'powershell' | 'cmd';

function posix(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Single quotes: nothing inside is expanded; a `'` (or a typographic one) is doubled. */
function powershell(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_+=:,./\\-]+$/.test(word) && !word.startsWith('@')) return word;
  return `'${word.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/**
 * For the program's own argument parser (MSVCRT rules): backslashes before a `"` doubled, `"` as
 * `\"`; the whole word in double quotes so `&|<>()^` are literal to cmd; `%` and `!` outside them.
 */
function cmd(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_+=:,./\\-]+$/.test(word)) return word;
  const inner = word.replace(/(\\*)"/g, (_m, bs: string) => `${bs}${bs}\\"`).replace(/(\\+)$/, '$1$1');
  return inner
    .split(/([%!])/)
    .map((part) => (part === '%' || part === '!' ? `^${part}` : part === '' ? '' : `"${part}"`))
    .join('')
    .replace(/^$/, '""');
}

export function quoteWord(word: string, shell: Shell = 'posix'): string {
  return shell === 'powershell' ? powershell(word) : shell === 'cmd' ? cmd(word) : posix(word);
}

export function quoteLine(words: readonly string[], shell: Shell = 'posix'): string {
  return words.map((w) => quoteWord(w, shell)).join(' ');
}
