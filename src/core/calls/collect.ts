/**
 * Drives a form plan through a user interface port: one question per field, then (when the
 * plan or the final validation needs it) a JSON document. The editor layer implements `FormUi`
 * with input boxes and pick lists; tests implement it with scripted answers.
 */
import type { FieldAnswer } from './field-input.js';
import { jsonDocumentText } from './json-document.js';
import type { FormField, FormPlan } from './schema-plan.js';

/** What a form asks of its user interface. Every method resolves `undefined` when the user cancels. */
export interface FormUi {
  /** Asks for one field. `initial` is the value to pre-fill (a default or an earlier answer). */
  ask(
    field: FormField,
    ctx: { step: number; total: number; title: string; initial?: unknown },
  ): Promise<FieldAnswer | undefined>;
  /**
   * Lets the user edit a JSON document until `validate` accepts it; resolves the parsed value.
   * `problem` is shown first when the document is offered because something was wrong.
   */
  editJson(
    text: string,
    ctx: { title: string; problem?: string; validate: (value: unknown) => string | undefined },
  ): Promise<{ value: unknown } | undefined>;
}

export interface CollectOptions {
  /** Shown in every step, e.g. "everything / echo". */
  title: string;
  /** Earlier arguments to pre-fill instead of the schema's defaults. */
  initial?: Record<string, unknown>;
  /** Whole-object validation run before the arguments are returned (e.g. the tool's schema). */
  validate?: (args: Record<string, unknown>) => string | undefined;
}

function objectCheck(
  value: unknown,
  validate?: (args: Record<string, unknown>) => string | undefined,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'The arguments must be a JSON object ({…}).';
  return validate?.(value as Record<string, unknown>);
}

/**
 * Collects an argument object. Resolves undefined when the user cancelled at any step (nothing
 * is sent then). Optional fields the user skipped are left out, not sent as empty values.
 */
export async function collectForm(
  plan: FormPlan,
  ui: FormUi,
  opts: CollectOptions,
): Promise<Record<string, unknown> | undefined> {
  const validate = (v: unknown) => objectCheck(v, opts.validate);
  if (plan.wholeDocument) {
    const r = await ui.editJson(jsonDocumentText(plan.root, { title: opts.title, current: opts.initial }), {
      title: opts.title,
      validate,
    });
    return r ? (r.value as Record<string, unknown>) : undefined;
  }
  const args: Record<string, unknown> = {};
  const total = plan.fields.length;
  for (const [i, field] of plan.fields.entries()) {
    const initial =
      opts.initial && field.name in opts.initial
        ? opts.initial[field.name]
        : field.hasDefault
          ? field.defaultValue
          : undefined;
    const answer = await ui.ask(field, { step: i + 1, total, title: opts.title, initial });
    if (answer === undefined) return undefined;
    if (answer.skip) {
      if (field.required) return undefined; // a UI must not offer "skip" for required fields; treat as cancel
      continue;
    }
    args[field.name] = answer.value;
  }
  const problem = validate(args);
  if (problem === undefined) return args;
  // The per-field checks passed but the whole object did not (e.g. dependencies between
  // properties): let the user fix it in one document rather than starting over.
  const r = await ui.editJson(jsonDocumentText(plan.root, { title: opts.title, current: args }), {
    title: opts.title,
    problem,
    validate,
  });
  return r ? (r.value as Record<string, unknown>) : undefined;
}
