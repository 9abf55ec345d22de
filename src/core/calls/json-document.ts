/**
 * JSON documents for values the one-line inputs cannot hold (nested objects, arrays, free-form
 * arguments): a skeleton pre-filled from the schema, with the optional properties listed in
 * comments, and a JSONC parser that reports where the text is broken.
 */
import { parse, printParseErrorCode, stripComments, type ParseError } from 'jsonc-parser';
import { resolveRef } from './schema-plan.js';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

function isObj(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An example value that satisfies the schema's shape: defaults where given, the first choice of
 * an enum, `minimum` for numbers, and every required property (optional ones are left out).
 */
export function skeletonValue(schema: Schema, root: Schema = schema, depth = 0): unknown {
  const s = resolveRef(root, schema);
  if ('default' in s) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
    unknown[] | undefined;
  if (union) {
    const first = union.filter(isObj).find((b) => b.type !== 'null');
    return first && depth < MAX_DEPTH ? skeletonValue(first, root, depth + 1) : null;
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const type = types.find((t) => t !== 'null') ?? (isObj(s.properties) ? 'object' : 'items' in s ? 'array' : undefined);
  switch (type) {
    case 'object': {
      if (depth >= MAX_DEPTH) return {};
      const props = isObj(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? s.required : []);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) {
        if (!isObj(v)) continue;
        const resolved = resolveRef(root, v);
        if (required.has(k) || 'default' in resolved) out[k] = skeletonValue(resolved, root, depth + 1);
      }
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      if (min > 0 && isObj(s.items) && depth < MAX_DEPTH) {
        return Array.from({ length: Math.min(min, 3) }, () => skeletonValue(s.items as Schema, root, depth + 1));
      }
      return [];
    }
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function typeLabel(s: Schema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (union) return union.filter(isObj).map(typeLabel).join(' | ');
  if (typeof s.type === 'string')
    return s.type === 'array' && isObj(s.items) && typeof s.items.type === 'string' ? `${s.items.type}[]` : s.type;
  return 'any';
}

/**
 * The text of a JSON document to edit: comment lines naming the value and every optional
 * property not pre-filled, then the JSON. `current` (e.g. the last arguments) replaces the skeleton.
 */
export function jsonDocumentText(schema: Schema, opts: { title: string; root?: Schema; current?: unknown }): string {
  const root = opts.root ?? schema;
  const s = resolveRef(root, schema);
  const value = opts.current !== undefined ? opts.current : skeletonValue(s, root);
  const lines = [`// ${opts.title}`];
  if (typeof s.description === 'string' && s.description)
    lines.push(
      ...s.description
        .split('\n')
        .slice(0, 5)
        .map((l) => `// ${l}`),
    );
  const props = isObj(s.properties) ? s.properties : undefined;
  if (props) {
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const present = isObj(value) ? new Set(Object.keys(value)) : new Set<string>();
    const described = Object.entries(props)
      .filter((e): e is [string, Schema] => isObj(e[1]))
      .map(([k, v]) => {
        const r = resolveRef(root, v);
        const desc = typeof r.description === 'string' ? ` — ${r.description.split('\n')[0]}` : '';
        return { k, line: `//   ${k}${required.has(k) ? ' (required)' : ''}: ${typeLabel(r)}${desc}` };
      });
    const missing = described.filter((d) => !present.has(d.k));
    if (described.length > 0) lines.push('// Properties:', ...described.map((d) => d.line));
    if (missing.length > 0)
      lines.push(`// Not filled in: ${missing.map((d) => d.k).join(', ')}. Add them to send them.`);
  }
  lines.push('// Comments and trailing commas are allowed.');
  return `${lines.join('\n')}\n${JSON.stringify(value, null, 2)}\n`;
}

/** What `parseJsonDocument` says about a document holding only comments (an optional value left out). */
export const NO_VALUE = 'The document holds no JSON value.';

/** Parses JSON with comments; an error names the line and column of the first problem. */
export function parseJsonDocument(text: string): { value: unknown } | { error: string } {
  if (stripComments(text).trim() === '') return { error: NO_VALUE };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const before = text.slice(0, e.offset);
    const line = before.split('\n').length;
    const column = e.offset - before.lastIndexOf('\n');
    return { error: `Invalid JSON at line ${line}, column ${column}: ${printParseErrorCode(e.error)}` };
  }
  if (value === undefined) return { error: NO_VALUE };
  return { value };
}
