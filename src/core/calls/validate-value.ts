/**
 * Full JSON-schema validation of one form value, through the host's one validator
 * (capabilities/validate.ts), so a field is checked exactly like a tool argument, 2020-12 included.
 */
import { validatorFor } from '../capabilities/validate.js';

/**
 * Returns a message naming what is wrong (`label/path must be …`, every problem, comma-separated),
 * or undefined when the value conforms. A schema ajv cannot compile is not the user's fault: the
 * value is then left for the server to judge.
 */
export function validateValue(schema: Record<string, unknown>, value: unknown, label = 'value'): string | undefined {
  const check = validatorFor(schema);
  if (!check || check(value)) return undefined;
  const seen = new Set((check.errors ?? []).map((e) => `${label}${e.instancePath} ${e.message ?? e.keyword}`));
  return [...seen].join(', ');
}
