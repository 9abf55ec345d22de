/**
 * Removes Unicode that can make text read differently from what a model or a person is shown
 * (Trojan Source, ASCII smuggling): bidi controls, zero-width and other invisible format
 * characters, the BOM, tag characters, variation selectors used to hide bytes, and control
 * characters other than tab and newlines.
 */

/** Description and instruction limit, as in the reference client. */
export const MAX_TEXT_LENGTH = 2048;
/** Appended to text that was cut, so a reader knows there was more. */
export const TRUNCATION_MARKER = '… [truncated]';

// \p{Cf} covers bidi embeddings/overrides/isolates/marks (U+200E/F, U+202A–E, U+2066–9, U+061C),
// zero-width space/joiners (U+200B–D), word joiner and invisible operators (U+2060–4), the BOM
// (U+FEFF), soft hyphen, interlinear annotations and the tag block (U+E0001, U+E0020–E007F).
// The rest are invisible but not Cf: unassigned tag code points, variation selectors (a known
// channel for hiding a payload one byte per selector), Hangul fillers, and C0/C1 controls.
const MISLEADING = new RegExp(
  [
    '\\p{Cf}',
    '[\\u{E0000}-\\u{E007F}]',
    '[\\u{FE00}-\\u{FE0F}]',
    '[\\u{E0100}-\\u{E01EF}]',
    '[\\u{180B}-\\u{180F}]',
    '[\\u{115F}\\u{1160}\\u{3164}\\u{FFA0}]',
    '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]',
  ].join('|'),
  'gu',
);

/** `text` without misleading invisible characters. */
export function stripMisleadingUnicode(text: string): string {
  return text.replace(MISLEADING, '');
}

/**
 * `text` with every character `stripMisleadingUnicode` would remove replaced by `escape(codePoint)`:
 * for showing a wire identifier (a tool name) faithfully but harmlessly, e.g. as `\u{202E}`.
 */
export function revealMisleadingUnicode(text: string, escape: (codePoint: number) => string): string {
  return text.replace(MISLEADING, (ch) => escape(ch.codePointAt(0)!));
}

/** True when `text` holds a character `stripMisleadingUnicode` would remove. */
export function hasMisleadingUnicode(text: string): boolean {
  MISLEADING.lastIndex = 0;
  const found = MISLEADING.test(text);
  MISLEADING.lastIndex = 0;
  return found;
}

/** Cuts `text` to `max` UTF-16 units plus the marker, never splitting a surrogate pair. */
export function cutText(text: string, max = MAX_TEXT_LENGTH): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATION_MARKER;
}

/** Every line ending a renderer may honour (CRLF, lone CR, U+2028/2029). */
export const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/**
 * `\n` for every line ending: Markdown reads a lone `\r` as a line break, so a `\r` that slips
 * past a `\n`-only check ends a code span or a table row and the rest renders as Markdown.
 */
export function normalizeLineEndings(text: string): string {
  return text.replace(LINE_BREAK, '\n');
}

/** Strips misleading Unicode and normalises line endings, then cuts (so invisible padding does not eat the visible budget). */
export function sanitizeText(text: string, max = MAX_TEXT_LENGTH): string {
  return cutText(normalizeLineEndings(stripMisleadingUnicode(text)), max);
}

/** Longest one-line label a server may give itself or a tool (name, version, title). */
export const MAX_LABEL_LENGTH = 256;

/** A one-line label a server reports about itself or its items: sanitised, line breaks as spaces, cut. */
export function sanitizeLabel(text: string, max = MAX_LABEL_LENGTH): string {
  return cutText(stripMisleadingUnicode(text).replace(LINE_BREAK, ' '), max);
}

/** Server instructions as the host passes them on: stripped and cut; empty becomes undefined. */
export function sanitizeInstructions(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const clean = sanitizeText(text);
  return clean.trim() === '' ? undefined : clean;
}

/**
 * A deep copy of a JSON value with every string (values and object keys) stripped of misleading
 * Unicode. Used for schemas: a description inside a property can carry a hidden instruction as
 * easily as the tool description. Lengths are not cut (a schema must stay a valid schema).
 */
export function sanitizeDeep<T>(value: T, depth = 0): T {
  // Schemas from a hostile server can be deeply nested; beyond this the value is returned as is
  // rather than overflowing the stack (ajv would refuse such a schema anyway).
  if (depth > 64) return value;
  if (typeof value === 'string') return stripMisleadingUnicode(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => sanitizeDeep(v, depth + 1)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      // defineProperty, not assignment: a `__proto__` key must stay data, not replace the prototype.
      Object.defineProperty(out, stripMisleadingUnicode(k), {
        value: sanitizeDeep(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}
