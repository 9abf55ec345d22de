/**
 * Text in, typed value out, for the fields of a form plan: what an input box shows, what it
 * accepts, and the error message it shows while the user types.
 */
import type { FormField } from './schema-plan.js';
import { validateValue } from './validate-value.js';

/** The answer to one field: a value, or "leave it out" (only offered for optional fields). */
export type FieldAnswer = { skip: true } | { skip?: false; value: unknown };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** A short line of constraints, e.g. "integer · 1 to 10" or "text · at least 3 characters". */
export function fieldHint(f: FormField): string {
  const parts: string[] = [];
  switch (f.kind) {
    case 'string':
      parts.push(f.format ? `text (${f.format})` : 'text');
      if (f.minLength !== undefined && f.maxLength !== undefined)
        parts.push(`${f.minLength}–${f.maxLength} characters`);
      else if (f.minLength !== undefined)
        parts.push(`at least ${f.minLength} character${f.minLength === 1 ? '' : 's'}`);
      else if (f.maxLength !== undefined) parts.push(`at most ${f.maxLength} characters`);
      if (f.pattern) parts.push(`matching /${f.pattern}/`);
      break;
    case 'number':
    case 'integer': {
      parts.push(f.kind);
      const lo =
        f.exclusiveMinimum !== undefined
          ? `> ${f.exclusiveMinimum}`
          : f.minimum !== undefined
            ? `≥ ${f.minimum}`
            : undefined;
      const hi =
        f.exclusiveMaximum !== undefined
          ? `< ${f.exclusiveMaximum}`
          : f.maximum !== undefined
            ? `≤ ${f.maximum}`
            : undefined;
      if (lo) parts.push(lo);
      if (hi) parts.push(hi);
      if (f.multipleOf !== undefined) parts.push(`multiple of ${f.multipleOf}`);
      break;
    }
    case 'boolean':
      parts.push('true or false');
      break;
    case 'enum':
      parts.push('one of the choices');
      break;
    case 'multi-enum':
      parts.push('any of the choices');
      if (f.minItems !== undefined) parts.push(`at least ${f.minItems}`);
      if (f.maxItems !== undefined) parts.push(`at most ${f.maxItems}`);
      break;
    case 'json':
      parts.push(f.jsonShape === 'array' ? 'JSON array' : f.jsonShape === 'object' ? 'JSON object' : 'JSON value');
      break;
  }
  if (f.nullable) parts.push('null allowed');
  parts.push(f.required ? 'required' : 'optional, leave empty to skip');
  return parts.join(' · ');
}

/** The prompt line of an input: the description (or label) and the constraints. */
export function fieldPrompt(f: FormField): string {
  const head = f.description ? `${f.label}: ${f.description}` : f.label;
  return `${head} (${fieldHint(f)})`;
}

/** What an input box starts with: the default, as the user would type it. */
export function initialText(f: FormField): string {
  if (!f.hasDefault || f.defaultValue === undefined) return '';
  if (f.kind === 'string' && typeof f.defaultValue === 'string') return f.defaultValue;
  if ((f.kind === 'number' || f.kind === 'integer') && typeof f.defaultValue === 'number')
    return String(f.defaultValue);
  return JSON.stringify(f.defaultValue);
}

/**
 * Parses what the user typed. Empty input skips an optional field; for a required string it is
 * the empty string (then checked against `minLength`). Returns an error message for bad input.
 */
export function parseFieldInput(f: FormField, text: string): { answer: FieldAnswer } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '' && !f.required && !(f.kind === 'string' && text.length > 0)) return { answer: { skip: true } };
  if (f.nullable && trimmed === 'null' && f.kind !== 'string') return { answer: { value: null } };
  switch (f.kind) {
    case 'string':
      return checked(f, text);
    case 'number':
    case 'integer': {
      if (trimmed === '')
        return { error: `${f.label} is required: enter ${f.kind === 'integer' ? 'a whole number' : 'a number'}.` };
      const n = Number(trimmed);
      if (!Number.isFinite(n)) return { error: `“${trimmed}” is not a number.` };
      return checked(f, n);
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (lower === 'true' || lower === 'false') return { answer: { value: lower === 'true' } };
      return { error: 'Enter true or false.' };
    }
    case 'enum': {
      const hit = f.options?.find(
        (o) =>
          o.label === trimmed ||
          (typeof o.value === 'string' ? o.value === trimmed : JSON.stringify(o.value) === trimmed),
      );
      if (hit) return { answer: { value: hit.value } };
      return { error: `Choose one of: ${(f.options ?? []).map((o) => o.label).join(', ')}.` };
    }
    case 'multi-enum':
    case 'json': {
      if (trimmed === '')
        return {
          error: `${f.label} is required: enter ${f.jsonShape === 'object' ? 'a JSON object' : f.jsonShape === 'array' || f.kind === 'multi-enum' ? 'a JSON array' : 'a JSON value'}.`,
        };
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (e) {
        return { error: `Not valid JSON: ${(e as Error).message}` };
      }
      return checked(f, value);
    }
  }
}

function checked(f: FormField, value: unknown): { answer: FieldAnswer } | { error: string } {
  const error = validateFieldValue(f, value);
  return error ? { error } : { answer: { value } };
}

/** The input box's `validateInput`: undefined when acceptable, else the message to show. */
export function validateFieldText(f: FormField, text: string): string | undefined {
  const r = parseFieldInput(f, text);
  return 'error' in r ? r.error : undefined;
}

/**
 * Checks a typed value against the field's constraints. Primitive constraints get hand-written
 * messages a person can act on; nested values are checked against the full schema.
 */
export function validateFieldValue(f: FormField, value: unknown): string | undefined {
  if (value === null) return f.nullable ? undefined : `${f.label} cannot be null.`;
  switch (f.kind) {
    case 'string': {
      if (typeof value !== 'string') return `${f.label} must be text.`;
      const len = [...value].length;
      if (f.minLength !== undefined && len < f.minLength)
        return `At least ${f.minLength} character${f.minLength === 1 ? '' : 's'} (now ${len}).`;
      if (f.maxLength !== undefined && len > f.maxLength) return `At most ${f.maxLength} characters (now ${len}).`;
      if (f.pattern !== undefined) {
        let re: RegExp | undefined;
        try {
          re = new RegExp(f.pattern, 'u');
        } catch {
          re = undefined; // A pattern JS cannot compile is left to the server to enforce.
        }
        if (re && !re.test(value)) return `Must match the pattern /${f.pattern}/.`;
      }
      return formatError(f.format, value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${f.label} must be a number.`;
      if (f.kind === 'integer' && !Number.isInteger(value)) return `${value} is not a whole number.`;
      if (f.minimum !== undefined && value < f.minimum) return `Must be at least ${f.minimum}.`;
      if (f.maximum !== undefined && value > f.maximum) return `Must be at most ${f.maximum}.`;
      if (f.exclusiveMinimum !== undefined && value <= f.exclusiveMinimum)
        return `Must be greater than ${f.exclusiveMinimum}.`;
      if (f.exclusiveMaximum !== undefined && value >= f.exclusiveMaximum)
        return `Must be less than ${f.exclusiveMaximum}.`;
      if (f.multipleOf !== undefined && f.multipleOf > 0 && !isMultiple(value, f.multipleOf))
        return `Must be a multiple of ${f.multipleOf}.`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${f.label} must be true or false.`;
    case 'enum':
      return f.options?.some((o) => sameValue(o.value, value))
        ? undefined
        : `Choose one of: ${(f.options ?? []).map((o) => o.label).join(', ')}.`;
    case 'multi-enum': {
      if (!Array.isArray(value)) return `${f.label} must be a list.`;
      const bad = value.find((v) => !f.options?.some((o) => sameValue(o.value, v)));
      if (bad !== undefined) return `${JSON.stringify(bad)} is not one of the choices.`;
      if (f.minItems !== undefined && value.length < f.minItems) return `Pick at least ${f.minItems}.`;
      if (f.maxItems !== undefined && value.length > f.maxItems) return `Pick at most ${f.maxItems}.`;
      return undefined;
    }
    case 'json': {
      if (f.jsonShape === 'object' && (typeof value !== 'object' || Array.isArray(value)))
        return `${f.label} must be a JSON object ({…}).`;
      if (f.jsonShape === 'array' && !Array.isArray(value)) return `${f.label} must be a JSON array ([…]).`;
      return validateValue(f.schema, value, f.label);
    }
  }
}

function formatError(format: string | undefined, value: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(value) ? undefined : 'Enter an e-mail address (name@example.com).';
    case 'uri':
    case 'url':
      try {
        new URL(value);
        return undefined;
      } catch {
        return 'Enter an absolute URI (for example https://example.com/x).';
      }
    case 'date':
      return DATE.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'Enter a date as YYYY-MM-DD.';
    case 'date-time':
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'Enter a date and time as YYYY-MM-DDTHH:MM:SSZ.';
    default:
      return undefined;
  }
}

function isMultiple(value: number, step: number): boolean {
  const q = value / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

/** Deep equality for JSON values (enum members may be numbers, objects or null). */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
