/**
 * An `inputs` declaration of `.vscode/mcp.json` checked without zod, for declarations that are
 * plainly right: the same fields as inputs-schema.ts. zod waits in a bundle of its own that
 * activation does not load (scripts/lib/deferred-modules.mjs); anything this is not sure of (a field
 * of the wrong type, which the schema drops, or a bad id or type, which it reports) returns
 * `undefined`, and sources/workspace.ts asks zod. test/unit/config/entry-check.test.ts holds this to
 * zod: whatever this accepts, zod accepts, with the same result.
 */
import type * as z from 'zod/v4';
import type { inputDeclarationSchema } from './inputs-schema.js';
import { INPUT_TYPES } from './input-types.js';

type Declaration = z.output<typeof inputDeclarationSchema>;
const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function option(x: unknown): string | { label?: string; value: string } | undefined {
  if (typeof x === 'string') return x;
  if (!isObject(x) || typeof x.value !== 'string') return undefined;
  if (!has(x, 'label')) return { value: x.value };
  return typeof x.label === 'string' ? { label: x.label, value: x.value } : undefined;
}

/** The declaration as `inputDeclarationSchema.parse` would return it, or `undefined`: ask zod. */
export function plainInput(v: unknown): Declaration | undefined {
  if (!isObject(v) || has(v, '__proto__') || typeof v.id !== 'string' || v.id.length === 0) return undefined;
  const type = has(v, 'type') ? v.type : 'promptString';
  if (!(INPUT_TYPES as readonly unknown[]).includes(type)) return undefined;
  const out: Record<string, unknown> = { id: v.id, type };
  const plain: [string, (x: unknown) => boolean][] = [
    ['description', (x) => typeof x === 'string'],
    ['password', (x) => typeof x === 'boolean'],
    ['default', (x) => typeof x === 'string'],
  ];
  for (const [k, ok] of plain)
    if (has(v, k)) {
      if (!ok(v[k])) return undefined;
      out[k] = v[k];
    }
  if (has(v, 'options')) {
    if (!Array.isArray(v.options) || v.options.length === 0) return undefined;
    const options = v.options.map(option);
    if (options.includes(undefined)) return undefined;
    out.options = options;
  }
  if (has(v, 'command')) {
    if (typeof v.command !== 'string' || v.command.length === 0) return undefined;
    out.command = v.command;
  }
  if (has(v, 'args')) out.args = v.args;
  return out as Declaration;
}
