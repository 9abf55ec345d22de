import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fieldHint,
  fieldPrompt,
  initialText,
  parseFieldInput,
  validateFieldText,
} from '../../../src/core/calls/field-input.js';
import { planField, type FormField } from '../../../src/core/calls/schema-plan.js';

function field(schema: Record<string, unknown>, required = true, root: Record<string, unknown> = {}): FormField {
  return planField(root, 'x', schema, required);
}

function value(f: FormField, text: string): unknown {
  const r = parseFieldInput(f, text);
  assert.ok('answer' in r, `expected "${text}" to be accepted, got ${JSON.stringify(r)}`);
  assert.ok('value' in r.answer, 'expected a value, not a skip');
  return r.answer.value;
}

test('strings: length, pattern and format messages say what to type', () => {
  const f = field({ type: 'string', minLength: 3, maxLength: 5, pattern: '^[a-z]+$' });
  assert.equal(validateFieldText(f, 'ab'), 'At least 3 characters (now 2).');
  assert.equal(validateFieldText(f, 'abcdef'), 'At most 5 characters (now 6).');
  assert.equal(validateFieldText(f, 'AbC'), 'Must match the pattern /^[a-z]+$/.');
  assert.equal(validateFieldText(f, 'abc'), undefined);
  assert.equal(value(f, 'abc'), 'abc');
  assert.match(validateFieldText(field({ type: 'string', format: 'email' }), 'nope') ?? '', /e-mail/);
  assert.equal(validateFieldText(field({ type: 'string', format: 'email' }), 'a@b.io'), undefined);
  assert.match(validateFieldText(field({ type: 'string', format: 'uri' }), 'not a uri') ?? '', /absolute URI/);
  assert.equal(validateFieldText(field({ type: 'string', format: 'uri' }), 'https://x.test/a'), undefined);
  assert.match(validateFieldText(field({ type: 'string', format: 'date' }), '2024-13-45') ?? '', /YYYY-MM-DD/);
  assert.equal(validateFieldText(field({ type: 'string', format: 'date' }), '2024-02-29'), undefined);
  assert.match(validateFieldText(field({ type: 'string', format: 'date-time' }), '2024-02-29') ?? '', /date and time/);
  assert.equal(validateFieldText(field({ type: 'string', format: 'date-time' }), '2024-02-29T10:00:00Z'), undefined);
});

test('strings keep spaces as typed; a pattern JS cannot compile is left to the server', () => {
  assert.equal(value(field({ type: 'string' }), '  two words '), '  two words ');
  assert.equal(validateFieldText(field({ type: 'string', pattern: '(?<' }), 'anything'), undefined);
});

test('a required string may be empty unless minLength forbids it', () => {
  assert.equal(value(field({ type: 'string' }), ''), '');
  assert.equal(validateFieldText(field({ type: 'string', minLength: 1 }), ''), 'At least 1 character (now 0).');
});

test('empty input skips an optional field of any type', () => {
  for (const schema of [
    { type: 'string' },
    { type: 'integer' },
    { type: 'boolean' },
    { type: 'object' },
    { type: 'string', enum: ['a'] },
  ]) {
    assert.deepEqual(parseFieldInput(field(schema, false), ''), { answer: { skip: true } }, JSON.stringify(schema));
  }
});

test('numbers and integers: parsing, bounds, multipleOf, whole numbers', () => {
  const i = field({ type: 'integer', minimum: 1, maximum: 10 });
  assert.equal(value(i, ' 7 '), 7);
  assert.equal(validateFieldText(i, '2.5'), '2.5 is not a whole number.');
  assert.equal(validateFieldText(i, '0'), 'Must be at least 1.');
  assert.equal(validateFieldText(i, '11'), 'Must be at most 10.');
  assert.equal(validateFieldText(i, 'seven'), '“seven” is not a number.');
  assert.equal(validateFieldText(i, ''), 'x is required: enter a whole number.');
  const n = field({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 });
  assert.equal(value(n, '0.75'), 0.75);
  assert.equal(validateFieldText(n, '0'), 'Must be greater than 0.');
  assert.equal(validateFieldText(n, '1'), 'Must be less than 1.');
  assert.equal(validateFieldText(n, '0.3'), 'Must be a multiple of 0.25.');
  assert.equal(
    value(field({ type: 'number', multipleOf: 0.1 }), '0.3'),
    0.3,
    'float rounding is not a multipleOf failure',
  );
});

test('booleans and enums accept their values (and enum labels)', () => {
  const b = field({ type: 'boolean' });
  assert.equal(value(b, 'TRUE'), true);
  assert.equal(value(b, 'false'), false);
  assert.equal(validateFieldText(b, 'yes'), 'Enter true or false.');
  const e = field({
    type: 'string',
    oneOf: [
      { const: 'lo', title: 'Low' },
      { const: 'hi', title: 'High' },
    ],
  });
  assert.equal(value(e, 'Low'), 'lo');
  assert.equal(value(e, 'hi'), 'hi');
  assert.equal(validateFieldText(e, 'mid'), 'Choose one of: Low, High.');
  assert.equal(value(field({ type: 'integer', enum: [1, 2] }), '2'), 2);
});

test('null is accepted only where the schema allows it', () => {
  assert.equal(value(field({ type: ['integer', 'null'] }), 'null'), null);
  assert.equal(validateFieldText(field({ type: 'integer' }), 'null'), '“null” is not a number.');
  assert.equal(value(field({ type: ['string', 'null'] }), 'null'), 'null', 'for strings, "null" is text');
});

test('multi-select: members, bounds', () => {
  const f = field({ type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 });
  assert.deepEqual(value(f, '["x","z"]'), ['x', 'z']);
  assert.equal(validateFieldText(f, '["w"]'), '"w" is not one of the choices.');
  assert.equal(validateFieldText(f, '[]'), 'Pick at least 1.');
  assert.equal(validateFieldText(f, '["x","y","z"]'), 'Pick at most 2.');
});

test('JSON fields: syntax errors, shape errors, and nested schema errors (with $defs)', () => {
  const root = { $defs: { P: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } } };
  const f = field({ $ref: '#/$defs/P' }, true, root);
  assert.deepEqual(value(f, '{"n": 1}'), { n: 1 });
  assert.match(validateFieldText(f, '{"n": }') ?? '', /^Not valid JSON: /);
  assert.equal(validateFieldText(f, '[1]'), 'x must be a JSON object ({…}).');
  assert.equal(validateFieldText(f, '{"n": "one"}'), 'x/n must be number');
  assert.equal(validateFieldText(f, '{}'), "x must have required property 'n'");
  const arr = field({ type: 'array', items: { type: 'number' } });
  assert.equal(validateFieldText(arr, '{}'), 'x must be a JSON array ([…]).');
  assert.equal(validateFieldText(arr, '[1, "a"]'), 'x/1 must be number');
  assert.deepEqual(value(arr, '[1, 2]'), [1, 2]);
});

test('initial text shows defaults as the user would type them', () => {
  assert.equal(initialText(field({ type: 'string', default: 'hi' })), 'hi');
  assert.equal(initialText(field({ type: 'integer', default: 5 })), '5');
  assert.equal(initialText(field({ type: 'object', default: { a: 1 } })), '{"a":1}');
  assert.equal(initialText(field({ type: 'string' })), '');
});

test('hints and prompts name the type, the constraints and whether the field may be skipped', () => {
  assert.equal(fieldHint(field({ type: 'integer', minimum: 1, maximum: 10 })), 'integer · ≥ 1 · ≤ 10 · required');
  assert.equal(
    fieldHint(field({ type: 'string', minLength: 2, format: 'email' }, false)),
    'text (email) · at least 2 characters · optional, leave empty to skip',
  );
  assert.equal(
    fieldPrompt(field({ type: 'string', description: 'Message to echo' })),
    'x: Message to echo (text · required)',
  );
  assert.equal(fieldHint(field({ type: 'object' })), 'JSON object · required');
});
