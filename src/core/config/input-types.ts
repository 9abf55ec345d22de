/** The kinds of `inputs` declaration: inputs-schema.ts builds on them, inputs-check.ts reads them without zod. */
export const INPUT_TYPES = ['promptString', 'pickString', 'command'] as const;
