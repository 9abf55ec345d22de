/**
 * Turns a JSON schema (a tool's `inputSchema`, an elicitation's `requestedSchema`, a prompt's
 * argument list) into a plan of simple inputs: one field per top-level property, each with the
 * widget that fits it. Nested objects, arrays of non-enum items and unions the planner cannot
 * express as a single input become `json` fields, edited as a JSON document.
 */

type Schema = Record<string, unknown>;

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum' | 'json';

/** One choice of an `enum` / `oneOf` / `anyOf` const list. */
export interface EnumOption {
  value: unknown;
  label: string;
  description?: string;
}

/** One input the user is asked for. */
export interface FormField {
  name: string;
  /** The schema's `title`, else the property name. */
  label: string;
  description?: string;
  kind: FieldKind;
  required: boolean;
  /** True when the schema has a `default`; `defaultValue` then holds it (possibly `null`). */
  hasDefault: boolean;
  defaultValue?: unknown;
  /** `null` is an accepted value (`type: [..., "null"]` or `anyOf` with a null branch). */
  nullable: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  /** Choices for `enum` and `multi-enum` fields. */
  options?: EnumOption[];
  /** For `json` fields: `object`, `array` or `any` (what the document's top level must be). */
  jsonShape?: 'object' | 'array' | 'any';
  /** The property's own schema with local `$ref`s resolved one level. */
  schema: Schema;
}

export interface FormPlan {
  fields: FormField[];
  /**
   * The schema is not an object with properties (or allows extra properties and declares none):
   * the whole argument object is edited as one JSON document.
   */
  wholeDocument: boolean;
  /** The root schema, kept so nested fields can be validated with their `$defs`. */
  root: Schema;
}

const MAX_REF_DEPTH = 8;

function isObj(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves a local JSON pointer (`#/$defs/X`, `#/definitions/X`); foreign refs stay unresolved. */
export function resolveRef(root: Schema, schema: Schema, depth = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > MAX_REF_DEPTH) return schema;
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObj(target) ? target[key] : undefined;
  }
  if (!isObj(target)) return schema;
  const { $ref: _ignored, ...rest } = schema;
  return resolveRef(root, { ...target, ...rest }, depth + 1);
}

/** Types named by `type` (string or array), without `null`, and whether `null` is allowed. */
function typesOf(schema: Schema): { types: string[]; nullable: boolean } {
  const t = schema.type;
  const list = Array.isArray(t)
    ? t.filter((x): x is string => typeof x === 'string')
    : typeof t === 'string'
      ? [t]
      : [];
  return { types: list.filter((x) => x !== 'null'), nullable: list.includes('null') };
}

/**
 * Unwraps `anyOf`/`oneOf` that only add `null` (what pydantic emits for `Optional[X]`), and a
 * single-entry `allOf`, so the field gets the widget of its real type.
 */
function unwrap(root: Schema, schema: Schema): { schema: Schema; nullable: boolean } {
  let s = resolveRef(root, schema);
  let nullable = false;
  for (let i = 0; i < MAX_REF_DEPTH; i++) {
    const union = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as
      unknown[] | undefined;
    if (union && !isConstList(union)) {
      const branches = union.filter(isObj).map((b) => resolveRef(root, b));
      const nonNull = branches.filter(
        (b) => !(b.type === 'null' || (Array.isArray(b.type) && b.type.length === 1 && b.type[0] === 'null')),
      );
      if (nonNull.length === 1 && branches.length === union.length) {
        nullable ||= nonNull.length < branches.length;
        const { anyOf: _a, oneOf: _o, ...outer } = s;
        s = { ...nonNull[0], ...outer };
        continue;
      }
      break;
    }
    if (Array.isArray(s.allOf) && s.allOf.length === 1 && isObj(s.allOf[0])) {
      const { allOf: _x, ...outer } = s;
      s = { ...resolveRef(root, s.allOf[0]), ...outer };
      continue;
    }
    break;
  }
  return { schema: s, nullable };
}

function isConstList(list: unknown[]): boolean {
  return list.length > 0 && list.every((b) => isObj(b) && 'const' in b);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The choices of a single-select enum (`enum` with optional `enumNames`, or `oneOf` consts). */
function singleOptions(s: Schema): EnumOption[] | undefined {
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.map((value, i) => ({
      value,
      label: typeof names[i] === 'string' ? (names[i] as string) : labelOf(value),
    }));
  }
  if ('const' in s) return [{ value: s.const, label: labelOf(s.const) }];
  const union = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined) as
    unknown[] | undefined;
  if (union && isConstList(union)) {
    return (union as Schema[]).map((b) => ({
      value: b.const,
      label: str(b.title) ?? labelOf(b.const),
      description: str(b.description),
    }));
  }
  return undefined;
}

function labelOf(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Plans one property. Exported for callers that plan a single value (e.g. a template variable). */
export function planField(root: Schema, name: string, raw: unknown, required: boolean): FormField {
  const { schema: s, nullable: unionNullable } = unwrap(root, isObj(raw) ? raw : {});
  const { types, nullable: typeNullable } = typesOf(s);
  const base: FormField = {
    name,
    label: str(s.title) ?? name,
    description: str(s.description),
    kind: 'json',
    required,
    hasDefault: 'default' in s,
    defaultValue: s.default,
    nullable: unionNullable || typeNullable,
    schema: s,
  };
  if (!base.hasDefault) delete base.defaultValue;

  const options = singleOptions(s);
  if (options) return { ...base, kind: 'enum', options };

  const type = types.length === 1 ? types[0] : types.length === 0 ? inferType(s) : undefined;
  switch (type) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        minLength: num(s.minLength),
        maxLength: num(s.maxLength),
        pattern: str(s.pattern),
        format: str(s.format),
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: type,
        minimum: num(s.minimum),
        maximum: num(s.maximum),
        // Draft 4 used booleans here; only the numeric (draft 6+) form is a bound.
        exclusiveMinimum: num(s.exclusiveMinimum),
        exclusiveMaximum: num(s.exclusiveMaximum),
        multipleOf: num(s.multipleOf),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        options: [
          { value: true, label: 'true' },
          { value: false, label: 'false' },
        ],
      };
    case 'array': {
      const items = isObj(s.items) ? unwrap(root, s.items).schema : undefined;
      const itemOptions = items ? singleOptions(items) : undefined;
      const common = { minItems: num(s.minItems), maxItems: num(s.maxItems) };
      if (itemOptions) return { ...base, ...common, kind: 'multi-enum', options: itemOptions };
      return { ...base, ...common, kind: 'json', jsonShape: 'array', schema: withDefs(root, s) };
    }
    case 'object':
      return { ...base, kind: 'json', jsonShape: 'object', schema: withDefs(root, s) };
    default:
      return { ...base, kind: 'json', jsonShape: 'any', schema: withDefs(root, s) };
  }
}

/** Nested `$ref`s point into the root's `$defs`; a field validated on its own needs them along. */
function withDefs(root: Schema, s: Schema): Schema {
  const out: Schema = { ...s };
  if (isObj(root.$defs) && !('$defs' in out)) out.$defs = root.$defs;
  if (isObj(root.definitions) && !('definitions' in out)) out.definitions = root.definitions;
  // The dialect picks the validator's engine: a 2020-12 tool's nested field is checked as 2020-12.
  if (typeof root.$schema === 'string' && !('$schema' in out)) out.$schema = root.$schema;
  return out;
}

/** A schema without `type` still says what it is through its keywords. */
function inferType(s: Schema): string | undefined {
  if ('properties' in s || 'additionalProperties' in s) return 'object';
  if ('items' in s) return 'array';
  if ('pattern' in s || 'minLength' in s || 'maxLength' in s || 'format' in s) return 'string';
  if ('minimum' in s || 'maximum' in s) return 'number';
  return undefined;
}

/** Plans the inputs for an object schema. A missing or empty schema plans no fields. */
export function planForm(schema: Record<string, unknown> | undefined): FormPlan {
  const root = isObj(schema) ? schema : {};
  const s = unwrap(root, root).schema;
  const { types } = typesOf(s);
  const isObject = types.length === 0 ? !('items' in s) : types.includes('object');
  const props = isObj(s.properties) ? s.properties : undefined;
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [],
  );

  if (!isObject) return { fields: [], wholeDocument: true, root };
  if (!props || Object.keys(props).length === 0) {
    // An open object with no declared properties (e.g. a free-form map) can only be typed as JSON.
    const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
    return { fields: [], wholeDocument: open || 'patternProperties' in s, root };
  }
  const fields = Object.entries(props).map(([name, raw]) => planField(root, name, raw, required.has(name)));
  // Required first keeps the mandatory questions together; the order within each group is the schema's.
  fields.sort((a, b) => Number(b.required) - Number(a.required));
  return { fields, wholeDocument: false, root };
}

/**
 * The schema of a prompt's arguments: every argument is a string (MCP prompts take strings only).
 */
export function promptArgumentsSchema(args: { name: string; description?: string; required?: boolean }[]): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      args.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }]),
    ),
    required: args.filter((a) => a.required).map((a) => a.name),
  };
}
