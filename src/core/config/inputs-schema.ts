/**
 * The one schema of `.vscode/mcp.json` `inputs`: the loader (sources/workspace.ts) reads
 * declarations with it, and scripts/gen-schema.mjs turns it into the `inputs` part of
 * media/vscode-mcp.json.schema.json (docs from schema-docs.ts ride on `.meta()`).
 *
 * A field of the wrong type is ignored, not fatal (`.catch`), as the loader always did: a
 * declaration is lost only for a missing id or an unknown type (here), or a pickString without
 * options or a command input without a command (checked by the loader: "required when type is …"
 * is not something the generated JSON schema can say).
 */
import * as z from 'zod/v4';
import { INPUT_DOCS } from './schema-docs.js';
import { INPUT_TYPES } from './input-types.js';

export { INPUT_TYPES };

const optionSchema = z.union([
  z.string(),
  z.object({ label: z.string().optional().catch(undefined), value: z.string() }),
]);

export const inputDeclarationSchema = z.object({
  id: z.string().min(1).meta(INPUT_DOCS.id),
  type: z.enum(INPUT_TYPES).default('promptString').meta(INPUT_DOCS.type),
  description: z.string().meta(INPUT_DOCS.description).optional().catch(undefined),
  password: z.boolean().meta(INPUT_DOCS.password).optional().catch(undefined),
  default: z.string().meta(INPUT_DOCS.default).optional().catch(undefined),
  // An option that is neither a string nor {value} is dropped; the rest are kept.
  options: z
    .array(optionSchema.optional().catch(undefined))
    .min(1)
    .meta(INPUT_DOCS.options)
    .optional()
    .catch(undefined),
  command: z.string().min(1).meta(INPUT_DOCS.command).optional().catch(undefined),
  args: z.unknown().meta(INPUT_DOCS.args).optional(),
});

export const inputsSchema = z.array(inputDeclarationSchema).meta(INPUT_DOCS.list);
