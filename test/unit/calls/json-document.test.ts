import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDocumentText, parseJsonDocument, skeletonValue } from '../../../src/core/calls/json-document.js';

test('the skeleton fills required properties and defaults, typed placeholders otherwise', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      count: { type: 'integer', minimum: 2 },
      on: { type: 'boolean' },
      mode: { type: 'string', enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string' } },
      pair: { type: 'array', items: { type: 'number' }, minItems: 2 },
      inner: { $ref: '#/$defs/Inner' },
      optional: { type: 'string' },
      withDefault: { type: 'number', default: 9 },
    },
    required: ['name', 'count', 'on', 'mode', 'tags', 'pair', 'inner'],
    $defs: { Inner: { type: 'object', properties: { deep: { type: 'string', const: 'k' } }, required: ['deep'] } },
  };
  assert.deepEqual(skeletonValue(schema), {
    name: '',
    count: 2,
    on: false,
    mode: 'a',
    tags: [],
    pair: [0, 0],
    inner: { deep: 'k' },
    withDefault: 9,
  });
});

test('unions take their first non-null branch; recursion stops', () => {
  assert.equal(skeletonValue({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 4 }] }), 4);
  const rec = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
  const v = skeletonValue(rec);
  let depth = 0;
  for (let cur: unknown = v; cur && typeof cur === 'object' && 'next' in cur; cur = (cur as { next: unknown }).next)
    depth++;
  assert.ok(depth > 0 && depth < 10, `bounded depth, got ${depth}`);
});

test('the document lists every property in comments, names the missing ones, and parses back', () => {
  const schema = {
    type: 'object',
    description: 'Settings for the run',
    properties: {
      a: { type: 'string', description: 'first' },
      b: { type: 'number' },
      c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['a'],
  };
  const text = jsonDocumentText(schema, { title: 'srv / tool' });
  assert.match(text, /^\/\/ srv \/ tool\n\/\/ Settings for the run\n/);
  assert.match(text, /\/\/ {3}a \(required\): string — first\n/);
  assert.match(text, /\/\/ {3}c: string \| null\n/);
  assert.match(text, /Not filled in: b, c\./);
  assert.deepEqual(parseJsonDocument(text), { value: { a: '' } });
});

test('current values replace the skeleton', () => {
  const text = jsonDocumentText(
    { type: 'object', properties: { a: { type: 'string' } } },
    { title: 't', current: { a: 'kept' } },
  );
  assert.deepEqual(parseJsonDocument(text), { value: { a: 'kept' } });
  assert.doesNotMatch(text, /Not filled in/);
});

test('parse errors name line and column; trailing commas and comments are fine; empty is reported', () => {
  assert.deepEqual(parseJsonDocument('// c\n{\n  "a": 1,\n}\n'), { value: { a: 1 } });
  const bad = parseJsonDocument('{\n  "a": 1\n  "b": 2\n}');
  assert.ok('error' in bad);
  assert.match(bad.error, /^Invalid JSON at line 3, column 3: CommaExpected$/);
  assert.deepEqual(parseJsonDocument('// only comments\n'), { error: 'The document holds no JSON value.' });
});
