/**
 * The public face of core/inspector: what the editor (src/extension) and the CLI (src/cli) may use of
 * it. They import this module only (scripts/lib/import-layers.mjs); inside core, files import
 * each other directly.
 */
export { formatServerDetails } from './details.js';
export { historyJson } from './history.js';
export { paramsSchema, paramsTemplate, requestMethods } from './request-schemas.js';
export { checkSamplingReply, samplingReplyDocument } from './sampling-reply.js';
