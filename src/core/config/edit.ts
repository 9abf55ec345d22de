/**
 * Adds, updates and removes one server entry in a config file's text with jsonc-parser's
 * `modify` + `applyEdits`, so comments, formatting and every other entry survive — users' top
 * complaint about other hosts is config files rewritten when a server is added or removed.
 * Pure text in, text out: the caller reads and writes the file (or applies a WorkspaceEdit).
 */
import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, type Edit, type FormattingOptions, type ParseError } from 'jsonc-parser';
import { lineColumn } from './jsonc.js';
import { validateServerEntry } from './schema.js';

/** `.mcp.json` (`mcpServers`), `.vscode/mcp.json` (`servers`), or a settings.json (`mcpHost.servers`). */
export type ConfigFileFormat = 'mcp.json' | 'vscode-mcp.json' | 'settings';

export function serversPath(format: ConfigFileFormat): string[] {
  switch (format) {
    case 'mcp.json':
      return ['mcpServers'];
    case 'vscode-mcp.json':
      return ['servers'];
    case 'settings':
      return ['mcpHost.servers'];
  }
}

/** Why an edit was refused; the file is left untouched. */
export class ConfigEditError extends Error {
  constructor(
    readonly code: 'invalid-json' | 'not-an-object' | 'invalid-entry' | 'invalid-name' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'ConfigEditError';
  }
}

/** Keeps the file's own indentation and line endings for inserted text. */
export function detectFormatting(text: string): FormattingOptions & { eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /^([ \t]+)\S/m.exec(text);
  if (m && m[1].startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: m ? Math.min(m[1].length, 8) : 2, eol };
}

function checkText(text: string, format: ConfigFileFormat): void {
  if (text.trim() === '') return;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw new ConfigEditError('invalid-json', `The file has a JSON error at line ${line}, column ${column}. Fix it first; it was not changed, so nothing in it is lost.`);
  }
  if (!root || root.type !== 'object') throw new ConfigEditError('not-an-object', 'The file does not contain a JSON object ({ ... }); it was not changed.');
  const servers = findNodeAtLocation(root, serversPath(format));
  if (servers && servers.type !== 'object') {
    throw new ConfigEditError('not-an-object', `"${serversPath(format)[0]}" in the file is not an object of servers; it was not changed.`);
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || name.trim() === '') throw new ConfigEditError('invalid-name', 'A server needs a non-empty name.');
}

function checkEntry(name: string, entry: unknown): void {
  const v = validateServerEntry(entry, { file: '(new entry)', jsonPath: [name], name, scope: 'user' });
  if (!v.ok) throw new ConfigEditError('invalid-entry', v.problems.map((p) => p.message).join(' '));
}

function finish(original: string, edits: Edit[]): string {
  const out = applyEdits(original, edits);
  const eol = detectFormatting(original || out).eol;
  return original.trim() === '' && !out.endsWith(eol) ? out + eol : out;
}

/** The edits that add or replace the entry `name` (for a WorkspaceEdit); see setServerEntry. */
export function setServerEntryEdits(text: string, format: ConfigFileFormat, name: string, entry: Record<string, unknown>): Edit[] {
  checkName(name);
  checkEntry(name, entry);
  checkText(text, format);
  const base = text.trim() === '' ? '' : text;
  const edits = modify(base, [...serversPath(format), name], entry, { formattingOptions: detectFormatting(text) });
  // An empty (whitespace-only) file is replaced as a whole.
  return base === text ? edits : [{ offset: 0, length: text.length, content: applyEdits('', edits) }];
}

/**
 * Adds the entry, or replaces it when the name exists; creates the file content when `text` is
 * empty or undefined (a missing file). Throws ConfigEditError for invalid input.
 */
export function setServerEntry(text: string | undefined, format: ConfigFileFormat, name: string, entry: Record<string, unknown>): string {
  const t = text ?? '';
  return finish(t, setServerEntryEdits(t, format, name, entry));
}

/**
 * Changes fields of an existing entry in place (`undefined` removes a field), keeping comments
 * inside the entry. Throws `not-found` when there is no such server.
 */
export function updateServerEntry(text: string, format: ConfigFileFormat, name: string, patch: Record<string, unknown>): string {
  checkName(name);
  checkText(text, format);
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && findNodeAtLocation(root, [...serversPath(format), name]);
  if (!node) throw new ConfigEditError('not-found', `There is no server "${name}" in this file.`);
  const fmt = detectFormatting(text);
  let out = text;
  for (const [k, v] of Object.entries(patch)) {
    out = applyEdits(out, modify(out, [...serversPath(format), name, k], v, { formattingOptions: fmt }));
  }
  const after = parseTree(out, [], { allowTrailingComma: true });
  const value = after && findNodeAtLocation(after, [...serversPath(format), name]);
  // A patch must not leave a broken entry behind (e.g. adding "url" next to "command").
  if (value) checkEntry(name, getNodeValue(value));
  return out;
}

/** Removes the entry; the text is returned unchanged when there is no such server. */
export function removeServerEntry(text: string, format: ConfigFileFormat, name: string): string {
  checkName(name);
  checkText(text, format);
  return applyEdits(text, modify(text, [...serversPath(format), name], undefined, { formattingOptions: detectFormatting(text) }));
}
