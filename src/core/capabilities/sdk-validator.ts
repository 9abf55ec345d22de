/**
 * The JSON Schema validator the SDK's Client and Server use (tool output schemas, elicitation
 * answers), on the host's own ajv engines (`validate.ts`): the SDK packages would otherwise each
 * bring an inlined Ajv of their own, two more copies beside ours in every bundle. esbuild.config.mjs
 * makes it the SDK's default (`sdk-shims.ts`); clients are also given it where they are made.
 *
 * Dialects as the SDK's default validator chooses them, so what passes or fails does not change:
 * no `$schema` is 2020-12, draft-06 and draft-07 the classic engine, any other dialect an error,
 * which the SDK reports as an invalid schema.
 */
import type { ValidateFunction } from 'ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { compileIn, errorsText, type Dialect } from './validate.js';

const DIALECTS: Record<string, Dialect> = {
  'https://json-schema.org/draft/2020-12/schema': 'draft2020',
  'https://json-schema.org/draft/2019-09/schema': 'draft2019',
  'https://json-schema.org/draft-07/schema': 'draft7',
  'https://json-schema.org/draft-06/schema': 'draft7',
};

function dialectOf(schema: JsonSchemaType): Dialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return 'draft2020';
  const dialect = DIALECTS[declared.replace(/#$/, '').replace(/^http:/, 'https:')];
  if (dialect) return dialect;
  throw new Error(
    `JSON Schema declares an unsupported dialect ("$schema": "${declared.slice(0, 200)}"); supported are 2020-12, 2019-09, draft-07 and draft-06`,
  );
}

/** Per schema object, as the SDK asks again for a schema it already had (each elicitation). */
const compiled = new WeakMap<object, ValidateFunction>();

export class HostJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = compileIn(dialectOf(schema), schema as Record<string, unknown>);
      compiled.set(schema, validate);
    }
    const check = validate;
    return (input) =>
      check(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: errorsText(check.errors) };
  }
}

/** Holds nothing per client (the cache above is shared), so every client can take this one. */
export const hostJsonSchemaValidator = new HostJsonSchemaValidator();
