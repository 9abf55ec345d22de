/**
 * Full JSON-schema validation of one value, through the SDK's own validator (Ajv), so a nested
 * argument is checked the same way the SDK checks structured tool output.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';

let validator: AjvJsonSchemaValidator | undefined;

/**
 * Returns a message naming what is wrong, or undefined when the value conforms. A schema Ajv
 * cannot compile is not the user's fault: the value is then left for the server to judge.
 */
export function validateValue(schema: Record<string, unknown>, value: unknown, label = 'value'): string | undefined {
  validator ??= new AjvJsonSchemaValidator();
  let check: ReturnType<AjvJsonSchemaValidator['getValidator']>;
  try {
    // `$id` would make Ajv cache by id and refuse a second, different schema with the same id.
    const { $id: _id, $schema: _schema, ...rest } = schema;
    check = validator.getValidator(rest as JsonSchemaType);
  } catch {
    return undefined;
  }
  const r = check(value);
  return r.valid ? undefined : r.errorMessage.replace(/(^|, )data/g, `$1${label}`);
}
