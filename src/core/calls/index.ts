/**
 * The public face of core/calls: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { CallHistory, type CallRecord, summariseArgs } from './call-history.js';
export { collectForm, type FormUi } from './collect.js';
export {
  type FieldAnswer,
  fieldHint,
  fieldPrompt,
  initialText,
  parseFieldInput,
  sameValue,
  validateFieldText,
} from './field-input.js';
export { jsonDocumentText, NO_VALUE, parseJsonDocument } from './json-document.js';
export {
  escapeMarkdown,
  promptPlainText,
  renderFailure,
  type RenderOptions,
  renderPrompt,
  renderResource,
  renderToolResult,
} from './render-markdown.js';
export { parseReadPath, resourceLinkHref, resultPath } from './result-links.js';
export { type FormField, planForm, promptArgumentsSchema } from './schema-plan.js';
export { urlElicitationsOf } from './url-elicitation-error.js';
export { urlTarget } from './url-target.js';
export { validateValue } from './validate-value.js';
