/**
 * The one JSON-schema validator of the host: tool arguments before a call (`validateToolArgs`) and
 * form fields (`calls/validate-value.ts`) both go through `validatorFor`, and the SDK's Client and
 * Server check output schemas and elicitation answers with the same engines (`sdk-validator.ts`).
 * ajv + ajv-formats, with the engine picked by `$schema` (draft-07, 2019-09, 2020-12); compiled
 * validators are cached per schema object.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { HostTool } from '../host-data.js';

type Compiler = {
  compile(schema: object): ValidateFunction;
  removeSchema(schema: object): unknown;
  errorsText(errors?: ErrorObject[] | null): string;
};

/** The three engines, by the JSON Schema dialect each implements (draft-07 also takes draft-06). */
export type Dialect = 'draft7' | 'draft2019' | 'draft2020';

function makeAjv<T extends Compiler>(ctor: new (opts: object) => T): T {
  // strict: false because real servers send keywords ajv does not know (e.g. zod's extras);
  // validateSchema: false so a slightly off schema still validates what it can.
  const ajv = new ctor({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
  addFormats(ajv as unknown as Parameters<typeof addFormats>[0]);
  return ajv;
}

let engines: { draft7: Compiler; draft2019: Compiler; draft2020: Compiler } | undefined;

/**
 * Compilations before the engines are replaced. Each ajv instance keeps a value of every schema it
 * compiled in its code-generation scope (removeSchema does not reach it): about 4.6 KB per tool
 * list a reconnect brings, which the soak benchmark measured as a steady leak. A compiled
 * validator is self-contained, so dropping the engines frees that without touching the cache.
 */
const COMPILES_PER_ENGINE = 256;
let compiles = 0;
function engine(dialect: Dialect): Compiler {
  engines ??= { draft7: makeAjv(Ajv), draft2019: makeAjv(Ajv2019), draft2020: makeAjv(Ajv2020) };
  return engines[dialect];
}

function dialectOf(schema: Record<string, unknown>): Dialect {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return 'draft2020';
  if (dialect.includes('2019-09')) return 'draft2019';
  return 'draft7';
}

/**
 * `schema` compiled by the engine of `dialect`; throws what ajv throws for a schema it cannot
 * compile. Not cached: callers keep what they compile.
 */
export function compileIn(dialect: Dialect, schema: Record<string, unknown>): ValidateFunction {
  // The root `$id` only matters for refs across documents, which tool schemas cannot use; ajv
  // would refuse odd ones ("urn:input") and clash on ids two servers share.
  const { $schema, $id: _id, ...rest } = schema;
  const ajv = engine(dialect);
  // Draft-07 ajv rejects unknown `$schema` URIs (draft-04, custom); the keyword only picks the engine.
  const source = dialect === 'draft7' ? rest : { $schema, ...rest };
  const fn = ajv.compile(source);
  // ajv keeps every compiled schema in a strong Map: with tool lists refreshed on list_changed
  // that would grow forever. The compiled function is self-contained, so the caller's cache is
  // the only one kept.
  ajv.removeSchema(source);
  if (++compiles >= COMPILES_PER_ENGINE) {
    engines = undefined;
    compiles = 0;
  }
  return fn;
}

/** ajv's one-line summary of a failed validation's errors. */
export function errorsText(errors: ErrorObject[] | null | undefined): string {
  return engine('draft2020').errorsText(errors);
}

/** Keyed by the schema object: a refreshed tool list brings new objects, so stale entries go with it. */
const cache = new WeakMap<object, ValidateFunction | null>();

/** The compiled validator of `schema`, or null when ajv cannot compile it (then the server judges). */
export function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  const hit = cache.get(schema);
  if (hit !== undefined) return hit;
  let fn: ValidateFunction | null;
  try {
    fn = compileIn(dialectOf(schema), schema);
  } catch {
    // A schema ajv cannot compile is the server's bug; the server still validates its own
    // input, so the call goes through rather than making the tool unusable.
    fn = null;
  }
  cache.set(schema, fn);
  return fn;
}

function describe(e: ErrorObject): string {
  const path = e.instancePath === '' ? '/' : e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${path}: missing required property '${String(p.missingProperty)}'`;
    case 'additionalProperties':
      return `${path}: unknown property '${String(p.additionalProperty)}'`;
    case 'enum':
      return `${path}: must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'const':
      return `${path}: must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return `${path}: ${e.message ?? e.keyword}`;
  }
}

/** Readable problems with `args` for `tool`; an empty array when they are valid. */
export function validateToolArgs(tool: HostTool, args: Record<string, unknown>): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return ['/: arguments must be a JSON object'];
  const validate = validatorFor(tool.inputSchema);
  if (!validate || validate(args)) return [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) seen.add(describe(e));
  return [...seen];
}
