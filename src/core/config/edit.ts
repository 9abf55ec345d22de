/**
 * Adds, updates and removes one server entry in a config file's text, so comments, formatting
 * and every other entry survive — users' top complaint about other hosts is config files
 * rewritten when a server is added or removed. Positions come from jsonc-parser's tree; the
 * edits are made here because `modify` reformats the surrounding range and drops neighbouring
 * comments on removal. Pure text in, text out: the caller reads and writes the file.
 */
import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  type Edit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { lineColumn } from './jsonc.js';
import { validateServerEntry } from './schema.js';
import { McpHostError } from '../errors.js';

/** `.mcp.json` (`mcpServers`), `.vscode/mcp.json` (`servers`), or a settings.json (`mcpHost.servers`). */
export type ConfigFileFormat = 'mcp.json' | 'vscode-mcp.json' | 'settings';

export function serversKey(format: ConfigFileFormat): string {
  switch (format) {
    case 'mcp.json':
      return 'mcpServers';
    case 'vscode-mcp.json':
      return 'servers';
    case 'settings':
      return 'mcpHost.servers';
  }
}

/** Why an edit was refused; the text is left untouched. */
export class ConfigEditError extends McpHostError {
  constructor(
    readonly code: 'invalid-json' | 'not-an-object' | 'invalid-entry' | 'invalid-name' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'ConfigEditError';
  }
}

export interface TextFormat {
  /** One level of indentation: "\t" or N spaces. */
  unit: string;
  eol: string;
}

/** The file's own indentation and line endings, used for inserted text. */
export function detectFormatting(text: string): TextFormat {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /^([ \t]+)\S/m.exec(text);
  if (m && m[1].startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(m ? Math.min(m[1].length, 8) : 2), eol };
}

function parse(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw new ConfigEditError(
      'invalid-json',
      `The file has a JSON error at line ${line}, column ${column}. Fix it first; it was not changed, so nothing in it is lost.`,
    );
  }
  if (!root || root.type !== 'object')
    throw new ConfigEditError(
      'not-an-object',
      'The file does not contain a JSON object ({ ... }); it was not changed.',
    );
  return root;
}

function serversNode(root: Node, format: ConfigFileFormat): Node | undefined {
  const node = findNodeAtLocation(root, [serversKey(format)]);
  if (node && node.type !== 'object') {
    throw new ConfigEditError(
      'not-an-object',
      `"${serversKey(format)}" in the file is not an object of servers; it was not changed.`,
    );
  }
  return node;
}

function checkName(name: string): void {
  if (typeof name !== 'string' || name.trim() === '')
    throw new ConfigEditError('invalid-name', 'A server needs a non-empty name.');
}

function checkEntry(name: string, entry: unknown): void {
  const v = validateServerEntry(entry, { file: '(new entry)', jsonPath: [name], name, scope: 'user' });
  if (!v.ok) throw new ConfigEditError('invalid-entry', v.problems.map((p) => p.message).join(' '));
}

// ---- text helpers -------------------------------------------------------------------------

function lineStart(text: string, off: number): number {
  return text.lastIndexOf('\n', off - 1) + 1;
}

function indentAt(text: string, off: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, off)))![0];
}

function onlyWhitespaceBefore(text: string, off: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, off), off));
}

/** Skips whitespace and comments from `i`; returns the index of the next token. */
function skipTrivia(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else return i;
  }
}

function propKey(p: Node): string {
  return p.children![0].value as string;
}

function render(value: unknown, indent: string, f: TextFormat): string {
  return JSON.stringify(value, null, f.unit)
    .split('\n')
    .join(f.eol + indent);
}

/** Text with `key: value` set in the object node (replacing the value when the key exists). */
function setProperty(text: string, obj: Node, key: string, value: unknown, f: TextFormat): string {
  const props = obj.children ?? [];
  const existing = props.find((p) => propKey(p) === key);
  if (existing) {
    const v = existing.children![1];
    const out = render(value, indentAt(text, existing.offset), f);
    return applyEdits(text, [{ offset: v.offset, length: v.length, content: out }]);
  }
  const k = JSON.stringify(key);
  if (props.length === 0) {
    const outer = indentAt(text, obj.offset);
    const inner = outer + f.unit;
    const content = `${f.eol}${inner}${k}: ${render(value, inner, f)}${f.eol}${outer}`;
    // Replace only whitespace inside "{ }"; anything else (a comment) stays after the new entry.
    const open = obj.offset + 1;
    const close = obj.offset + obj.length - 1;
    const inside = text.slice(open, close);
    return /^\s*$/.test(inside)
      ? applyEdits(text, [{ offset: open, length: inside.length, content }])
      : applyEdits(text, [{ offset: open, length: 0, content: content.slice(0, -outer.length - f.eol.length) }]);
  }
  const last = props[props.length - 1];
  const end = last.offset + last.length;
  const inline = !text.slice(obj.offset, props[0].offset).includes('\n');
  if (inline) return applyEdits(text, [{ offset: end, length: 0, content: `, ${k}: ${JSON.stringify(value)}` }]);
  const ind = indentAt(text, props[0].offset);
  // Insert after the last entry's comma and same-line comment, so the comment stays with its entry.
  let j = end + /^[ \t]*/.exec(text.slice(end))![0].length;
  const hasComma = text[j] === ',';
  if (hasComma) j++;
  j += /^[ \t]*(\/\/[^\r\n]*|\/\*.*?\*\/)?/.exec(text.slice(j))![0].length;
  const entry = `${f.eol}${ind}${k}: ${render(value, ind, f)}${hasComma ? ',' : ''}`;
  const edits: Edit[] = [{ offset: j, length: 0, content: entry }];
  if (!hasComma) edits.unshift({ offset: end, length: 0, content: ',' });
  return applyEdits(text, edits);
}

/** Text without the property `key` of the object node; comments around other entries stay. */
function removeProperty(text: string, obj: Node, key: string): string {
  const props = obj.children ?? [];
  const i = props.findIndex((p) => propKey(p) === key);
  if (i === -1) return text;
  const p = props[i];
  const ownLine = onlyWhitespaceBefore(text, p.offset);
  let start = ownLine ? lineStart(text, p.offset) : p.offset;
  let end = p.offset + p.length;
  const edits: Edit[] = [];
  const afterValue = skipTrivia(text, end);
  const hasComma = text[afterValue] === ',';
  if (hasComma) end = afterValue + 1;
  if (ownLine) {
    // Take the rest of the line: spaces, a trailing // comment about this entry, the newline.
    const rest = /^[ \t]*(\/\/[^\r\n]*)?(\r?\n)?/.exec(text.slice(end))!;
    if (rest[2] !== undefined) end += rest[0].length;
    else start = p.offset;
  } else {
    end += /^[ \t]*/.exec(text.slice(end))![0].length;
    if (!hasComma) start -= /[ \t]*$/.exec(text.slice(0, start))![0].length;
  }
  if (!hasComma && i > 0) {
    // The last entry goes: the comma after the previous one must go too (plain JSON has no trailing commas).
    const prev = props[i - 1];
    const comma = skipTrivia(text, prev.offset + prev.length);
    if (text[comma] === ',') edits.push({ offset: comma, length: 1, content: '' });
  }
  edits.push({ offset: start, length: end - start, content: '' });
  return applyEdits(text, edits);
}

/** One edit covering what differs between two texts (for an editor's WorkspaceEdit). */
export function minimalEdit(before: string, after: string): Edit[] {
  if (before === after) return [];
  let s = 0;
  while (s < before.length && s < after.length && before[s] === after[s]) s++;
  let e = 0;
  while (e < before.length - s && e < after.length - s && before[before.length - 1 - e] === after[after.length - 1 - e])
    e++;
  return [{ offset: s, length: before.length - s - e, content: after.slice(s, after.length - e) }];
}

// ---- public operations --------------------------------------------------------------------

/**
 * Adds the entry, or replaces it when the name exists; creates the file content when `text` is
 * empty or undefined (a missing file). Throws ConfigEditError for invalid input.
 */
export function setServerEntry(
  text: string | undefined,
  format: ConfigFileFormat,
  name: string,
  entry: Record<string, unknown>,
): string {
  checkName(name);
  checkEntry(name, entry);
  const f = detectFormatting(text ?? '');
  if (text === undefined || text.trim() === '')
    return render({ [serversKey(format)]: { [name]: entry } }, '', f) + f.eol;
  const root = parse(text);
  const servers = serversNode(root, format);
  if (!servers) return setProperty(text, root, serversKey(format), { [name]: entry }, f);
  return setProperty(text, servers, name, entry, f);
}

/** The edits setServerEntry would make, for a WorkspaceEdit. */
export function setServerEntryEdits(
  text: string,
  format: ConfigFileFormat,
  name: string,
  entry: Record<string, unknown>,
): Edit[] {
  return minimalEdit(text, setServerEntry(text, format, name, entry));
}

/**
 * Changes fields of an existing entry in place (`undefined` removes a field), keeping comments
 * inside the entry. Throws `not-found` when there is no such server, `invalid-entry` when the
 * result would be a broken entry (nothing is changed then).
 */
export function updateServerEntry(
  text: string,
  format: ConfigFileFormat,
  name: string,
  patch: Record<string, unknown>,
): string {
  checkName(name);
  const f = detectFormatting(text);
  let out = text;
  const entryNode = (t: string) => {
    const servers = serversNode(parse(t), format);
    const node = servers && findNodeAtLocation(servers, [name]);
    if (!node) throw new ConfigEditError('not-found', `There is no server "${name}" in this file.`);
    if (node.type !== 'object')
      throw new ConfigEditError('not-an-object', `Server "${name}" in the file is not an object; it was not changed.`);
    return node;
  };
  entryNode(out);
  for (const [k, v] of Object.entries(patch)) {
    out = v === undefined ? removeProperty(out, entryNode(out), k) : setProperty(out, entryNode(out), k, v, f);
  }
  checkEntry(name, getNodeValue(entryNode(out)));
  return out;
}

/** Removes the entry; the text is returned unchanged when there is no such server. */
export function removeServerEntry(text: string, format: ConfigFileFormat, name: string): string {
  checkName(name);
  if (text.trim() === '') return text;
  const servers = serversNode(parse(text), format);
  return servers ? removeProperty(text, servers, name) : text;
}
