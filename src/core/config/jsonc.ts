/**
 * Reading config text with jsonc-parser: parse errors become `ConfigProblem`s with line and
 * column, and JSON paths map back to offsets so problems and the editor can point at an entry.
 */
import {
  createScanner,
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
  visit,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { readBoundedFile } from './read-bounded.js';
import type { ConfigProblem, Scope } from './types.js';

/** Config files are a few KB; Claude Code's `~/.claude.json` (read by discovery) can reach a few MB. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/**
 * Deeper nesting than any real config needs. The parser (and everything after it) recurses per
 * level, so a hostile file nested thousands deep would overflow the stack.
 */
export const MAX_CONFIG_DEPTH = 64;

export type JsonPath = (string | number)[];

/** 1-based line and column of an offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Where an entry sits in a file's text, for "open config" and for problem positions. */
export interface EntryLocation {
  /** Offset of the property key (or of the value for array items / the root). */
  offset: number;
  /** Length of the whole `"key": value` span. */
  length: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/**
 * Finds the entry at `jsonPath` (e.g. ["mcpServers", "github"]) in JSON/JSONC text. Returns the
 * span of the property (key and value) so an editor can reveal and select it; undefined when the
 * path does not exist.
 */
export function findEntryOffset(text: string, jsonPath: JsonPath): EntryLocation | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return undefined;
  const node = findNodeAtLocation(root, jsonPath);
  if (!node) return undefined;
  const span: Node = node.parent?.type === 'property' ? node.parent : node;
  return { offset: span.offset, length: span.length, ...lineColumn(text, span.offset) };
}

/** Like findEntryOffset, but falls back to the closest existing ancestor (a bad field inside an entry). */
export function findNearestOffset(text: string, jsonPath: JsonPath): EntryLocation | undefined {
  for (let n = jsonPath.length; n >= 0; n--) {
    const loc = findEntryOffset(text, jsonPath.slice(0, n));
    if (loc) return loc;
  }
  return undefined;
}

// Keyed by printParseErrorCode names: ParseErrorCode is an ambient const enum (unusable with isolatedModules).
const PARSE_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':' after the property name",
  CommaExpected: "expected ',' between entries",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: 'unexpected content after the end of the JSON document',
  InvalidCommentToken: 'comments are not allowed in this file',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is not complete',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character in a string',
  InvalidCharacter: 'invalid character in a string',
};

function describeParseError(text: string, err: ParseError, jsonc: boolean): string {
  const at = text[err.offset];
  if (!jsonc && (at === '}' || at === ']') && /,\s*$/.test(text.slice(0, err.offset))) {
    return 'a trailing comma is not allowed in this file';
  }
  if (!jsonc && printParseErrorCode(err.error) === 'InvalidSymbol' && at === '/') {
    return 'comments are not allowed in this file (it is read as plain JSON)';
  }
  return PARSE_MESSAGES[printParseErrorCode(err.error)] ?? 'invalid JSON';
}

export interface ParsedText {
  /** The parsed document; undefined when the text is not valid (see problems). */
  value?: unknown;
  problems: ConfigProblem[];
}

/**
 * Parses config text. `jsonc` allows comments and trailing commas (VS Code's files); otherwise
 * the text must be plain JSON because other apps read the same file. Empty text is an empty
 * document. A file with a syntax error yields no value: loading half a file would silently drop
 * the servers after the error.
 */
export function parseConfigText(text: string, file: string, opts: { jsonc: boolean; scope?: Scope }): ParsedText {
  if (text.trim() === '') return { value: {}, problems: [] };
  const at = (offset: number, code: string, message: string, jsonPath: JsonPath = []): ConfigProblem => ({
    severity: 'error',
    code,
    message,
    file,
    jsonPath,
    scope: opts.scope,
    ...lineColumn(text, offset),
  });
  const body = text.replace(/^\uFEFF/, '');
  const tooDeep = nestingBeyond(body, MAX_CONFIG_DEPTH);
  if (tooDeep !== undefined) {
    return {
      problems: [
        at(
          tooDeep,
          'too-deep',
          `The file is nested more than ${MAX_CONFIG_DEPTH} levels deep, which no MCP config needs. Until it is fixed it adds no servers, and those it defined at its last good read keep running.`,
        ),
      ],
    };
  }
  const errors: ParseError[] = [];
  const built = buildValue(body, errors, {
    allowTrailingComma: opts.jsonc,
    disallowComments: !opts.jsonc,
    allowEmptyContent: true,
  });
  const value = built.value;
  if (errors.length > 0) {
    const first = errors[0]!;
    const pos = lineColumn(text, first.offset);
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return {
      problems: [
        {
          severity: 'error',
          code: 'invalid-json',
          message: `Invalid JSON at line ${pos.line}, column ${pos.column}: ${describeParseError(text, first, opts.jsonc)}${more}. Fix the file: until then it adds no servers, and those it defined at its last good read keep running.`,
          file,
          jsonPath: [],
          scope: opts.scope,
          ...pos,
        },
      ],
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      problems: [
        {
          severity: 'error',
          code: 'schema',
          message: `The file must contain a JSON object ({ ... }), but it contains ${describeValue(value)}.`,
          file,
          jsonPath: [],
          scope: opts.scope,
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const problems = built.protoKeys.map((k) =>
    at(
      k.offset,
      'forbidden-key',
      `"__proto__" is not allowed as a key (at ${formatJsonPath(k.path) || 'the top level'}): JSON readers disagree on what it means, so it is ignored here. Rename or remove it.`,
      k.path,
    ),
  );
  return { value, problems };
}

/** Offset of the first bracket opening a level deeper than `max`; undefined when within. Iterative. */
function nestingBeyond(text: string, max: number): number | undefined {
  // SyntaxKind is an ambient const enum (unusable with isolatedModules): 1 `{`, 2 `}`, 3 `[`, 4 `]`, 17 end.
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let t = scanner.scan(); t !== 17; t = scanner.scan()) {
    if (t === 1 || t === 3) {
      if (++depth > max) return scanner.getTokenOffset();
    } else if (t === 2 || t === 4) depth--;
  }
  return undefined;
}

/**
 * jsonc-parser's `parse`, but objects are built without a prototype and `__proto__` keys are left
 * out and reported: `parse` assigns them, which swaps the object's prototype, so a root
 * `{"__proto__": {"mcpServers": …}}` would load servers no plain JSON reader sees.
 */
function buildValue(
  text: string,
  errors: ParseError[],
  options: { allowTrailingComma: boolean; disallowComments: boolean; allowEmptyContent: boolean },
): { value: unknown; protoKeys: { path: JsonPath; offset: number }[] } {
  const protoKeys: { path: JsonPath; offset: number }[] = [];
  const stack: (Record<string, unknown> | unknown[])[] = [];
  const keys: (string | undefined)[] = [];
  let key: string | undefined;
  let keyPath: JsonPath = [];
  let keyOffset = 0;
  let root: unknown;
  const put = (v: unknown) => {
    const top = stack[stack.length - 1];
    if (!top) root = v;
    else if (Array.isArray(top)) top.push(v);
    else if (key === '__proto__') protoKeys.push({ path: keyPath, offset: keyOffset });
    else if (key !== undefined) top[key] = v;
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        const o = Object.create(null) as Record<string, unknown>;
        put(o);
        stack.push(o);
        keys.push(key);
      },
      onObjectProperty: (name, offset, _len, _line, _col, pathSupplier) => {
        key = name;
        keyOffset = offset;
        if (name === '__proto__') keyPath = [...pathSupplier(), name];
      },
      onObjectEnd: () => {
        stack.pop();
        key = keys.pop();
      },
      onArrayBegin: () => {
        const a: unknown[] = [];
        put(a);
        stack.push(a);
        keys.push(key);
      },
      onArrayEnd: () => {
        stack.pop();
        key = keys.pop();
      },
      onLiteralValue: (v) => put(v),
      onError: (error, offset, length) => errors.push({ error, offset, length }),
    },
    options,
  );
  return { value: root, protoKeys };
}

export type FileRead = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'error'; problem: ConfigProblem };

/**
 * Reads a config file; a missing file is normal (nothing configured), other failures are problems.
 * Only regular files up to MAX_CONFIG_BYTES are read: a repository can commit `.mcp.json` as a
 * symlink to /dev/zero or a FIFO.
 */
export async function readConfigFile(file: string, scope?: Scope): Promise<FileRead> {
  const r = await readBoundedFile(file, MAX_CONFIG_BYTES);
  if (r.kind === 'text' || r.kind === 'missing') return r;
  return {
    kind: 'error',
    problem: { severity: 'error', code: 'unreadable', message: r.message, file, jsonPath: [], scope },
  };
}

/** "a number", "an array", "null"... for messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
    case 'number':
      return `a number (${v})`;
    case 'boolean':
      return `${v}`;
    case 'object':
      return 'an object';
    case 'undefined':
      return 'missing';
    default:
      return typeof v;
  }
}

/** Human form of a JSON path: mcpServers.github.args[1] */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}
