/**
 * Server and tool name normalisation. Model APIs accept tool names matching `^[A-Za-z0-9_-]{1,64}$`,
 * so every tool the host offers gets a qualified name `mcp__<server>__<tool>` in that alphabet,
 * unique within the host, derived deterministically from the raw names.
 */
import { createHash } from 'node:crypto';

/** Longest qualified tool name model APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

const QUALIFIED_PREFIX = 'mcp__';
const SEPARATOR = '__';
/** Hex digits of the disambiguating hash; 8 hex = 32 bits, plenty for one host's tools. */
const HASH_LENGTH = 8;

/** Replaces every character outside `[A-Za-z0-9_-]` with `_` (per UTF-16 code point). */
export function normalizeName(name: string): string {
  // Iterate code points so an astral character (emoji, tag char) becomes one `_`, not two.
  let out = '';
  for (const ch of name) out += /^[A-Za-z0-9_-]$/.test(ch) ? ch : '_';
  return out;
}

/** `mcp__<server>__<tool>` normalised, without length limit or collision handling. */
export function rawQualifiedName(server: string, tool: string): string {
  return `${QUALIFIED_PREFIX}${normalizeName(server)}${SEPARATOR}${normalizeName(tool)}`;
}

function shortHash(...parts: string[]): string {
  // NUL cannot appear in JSON-RPC names we care about being distinct, so it is a safe joiner.
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * The qualified name for `tool` of `server`, unique within `taken` (which it does not modify).
 *
 * When the plain name fits and is free it is used as is. Otherwise (too long, or already taken by
 * another tool whose name normalised to the same string) the name is cut and suffixed with
 * `_<hash of the raw server and tool names>`, so the same inputs always get the same name. In the
 * astronomically rare case that is taken too, a counter goes into the hash.
 */
export function qualifiedToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  return uniqueName(rawQualifiedName(server, tool), server, tool, taken);
}

/**
 * The gateway's name for a tool or prompt: `<server>__<name>` (no `mcp__` prefix: the agent adds
 * its own), with the same alphabet, length limit and collision handling as `qualifiedToolName`.
 */
export function gatewayName(
  server: string,
  name: string,
  taken: ReadonlySet<string> | ((name: string) => boolean),
): string {
  return uniqueName(`${normalizeName(server)}${SEPARATOR}${normalizeName(name)}`, server, name, taken);
}

function uniqueName(
  plain: string,
  server: string,
  tool: string,
  names: ReadonlySet<string> | ((name: string) => boolean),
): string {
  const taken = typeof names === 'function' ? { has: names } : names;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken.has(plain)) return plain;
  for (let attempt = 0; ; attempt++) {
    const hash = attempt === 0 ? shortHash(server, tool) : shortHash(server, tool, String(attempt));
    const room = MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1;
    const candidate = `${plain.slice(0, room)}_${hash}`;
    if (!taken.has(candidate)) return candidate;
  }
}
