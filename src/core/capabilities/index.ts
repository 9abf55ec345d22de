/**
 * Capabilities: what the host makes of a server's tools, resources and prompts (wrapping,
 * sanitising, argument validation) and of its results (content kept, blobs moved to files).
 * The host and its server entries call these; front ends only see the wrapped types from ../host-data.ts.
 */
export { wrapTools, wrapResources, wrapResourceTemplates, wrapPrompts } from './wrap.js';
export {
  sanitizeInstructions,
  sanitizeText,
  sanitizeLabel,
  normalizeLineEndings,
  stripMisleadingUnicode,
  revealMisleadingUnicode,
  MAX_TEXT_LENGTH,
  TRUNCATION_MARKER,
} from './sanitize.js';
export { validateToolArgs } from './validate.js';
export { toToolCallResult, toResourceReadResult, toPromptGetResult } from './results.js';
export { writeBlob } from './blobs.js';
