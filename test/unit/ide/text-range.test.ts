import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findTextRange } from '../../../src/core/ide/text-range.js';

const text = 'import x from "y";\nfunction add(a, b) {\n  return a + b;\n}\n';

test('startText alone selects that text', () => {
  assert.deepEqual(findTextRange(text, 'function add', undefined, false), {
    start: { line: 1, character: 0 },
    end: { line: 1, character: 12 },
  });
});

test('startText to endText spans lines', () => {
  assert.deepEqual(findTextRange(text, 'function', 'a + b;', false), {
    start: { line: 1, character: 0 },
    end: { line: 2, character: 15 },
  });
});

test('selectToEndOfLine stretches to the line end, also with CRLF', () => {
  assert.deepEqual(findTextRange(text, 'return', undefined, true), {
    start: { line: 2, character: 2 },
    end: { line: 2, character: 15 },
  });
  assert.deepEqual(findTextRange('a\r\nbcd\r\n', 'b', undefined, true), {
    start: { line: 1, character: 0 },
    end: { line: 1, character: 3 },
  });
});

test('endText before startText or missing falls back to startText', () => {
  assert.deepEqual(findTextRange(text, 'return', 'import', false), {
    start: { line: 2, character: 2 },
    end: { line: 2, character: 8 },
  });
});

test('nothing to select when startText is absent or not found', () => {
  assert.equal(findTextRange(text, undefined, 'x', false), undefined);
  assert.equal(findTextRange(text, 'nope', undefined, false), undefined);
});
