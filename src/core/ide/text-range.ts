import type { IdePosition, IdeRange } from './editor-port.js';

function positionAt(text: string, offset: number): IdePosition {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

/**
 * The range `openFile` selects: from the first occurrence of `startText` to the end of the first
 * `endText` at or after it (or the end of `startText` alone), optionally stretched to the end of
 * that line. undefined when `startText` is absent or not found; then the file opens unselected.
 */
export function findTextRange(
  text: string,
  startText: string | undefined,
  endText: string | undefined,
  selectToEndOfLine: boolean,
): IdeRange | undefined {
  if (!startText) return undefined;
  const start = text.indexOf(startText);
  if (start === -1) return undefined;
  let end = start + startText.length;
  if (endText) {
    const e = text.indexOf(endText, start);
    if (e !== -1) end = e + endText.length;
  }
  if (selectToEndOfLine) {
    const nl = text.indexOf('\n', end);
    end = nl === -1 ? text.length : nl;
    if (end > 0 && text[end - 1] === '\r') end--;
  }
  return { start: positionAt(text, start), end: positionAt(text, end) };
}
