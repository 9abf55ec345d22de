import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planForm, promptArgumentsSchema, resolveRef, type FormField } from '../../../src/core/calls/schema-plan.js';

function byName(fields: FormField[]): Record<string, FormField> {
  return Object.fromEntries(fields.map((f) => [f.name, f]));
}

test('every primitive type gets its widget, with constraints and labels carried over', () => {
  const plan = planForm({
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'Who', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
      mail: { type: 'string', format: 'email' },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
      flag: { type: 'boolean' },
    },
    required: ['name'],
  });
  assert.equal(plan.wholeDocument, false);
  const f = byName(plan.fields);
  assert.deepEqual(
    [f.name.kind, f.mail.kind, f.count.kind, f.ratio.kind, f.flag.kind],
    ['string', 'string', 'integer', 'number', 'boolean'],
  );
  assert.equal(f.name.label, 'Name');
  assert.equal(f.name.description, 'Who');
  assert.equal(f.mail.label, 'mail', 'label falls back to the property name');
  assert.deepEqual([f.name.minLength, f.name.maxLength, f.name.pattern], [2, 5, '^[a-z]+$']);
  assert.equal(f.mail.format, 'email');
  assert.deepEqual([f.count.minimum, f.count.maximum], [1, 10]);
  assert.deepEqual([f.ratio.exclusiveMinimum, f.ratio.exclusiveMaximum, f.ratio.multipleOf], [0, 1, 0.25]);
  assert.deepEqual(
    f.flag.options?.map((o) => o.value),
    [true, false],
  );
});

test('required fields come first, the schema order is kept within each group', () => {
  const plan = planForm({
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } },
    required: ['c', 'a'],
  });
  assert.deepEqual(
    plan.fields.map((f) => [f.name, f.required]),
    [
      ['a', true],
      ['c', true],
      ['b', false],
      ['d', false],
    ],
  );
});

test('defaults are recorded, including falsy ones; no default means hasDefault false', () => {
  const f = byName(
    planForm({
      type: 'object',
      properties: {
        n: { type: 'number', default: 0 },
        s: { type: 'string', default: '' },
        b: { type: 'boolean', default: false },
        x: { type: 'string' },
      },
    }).fields,
  );
  assert.deepEqual([f.n.hasDefault, f.n.defaultValue], [true, 0]);
  assert.deepEqual([f.s.hasDefault, f.s.defaultValue], [true, '']);
  assert.deepEqual([f.b.hasDefault, f.b.defaultValue], [true, false]);
  assert.equal(f.x.hasDefault, false);
  assert.ok(!('defaultValue' in f.x));
});

test('enums: plain, legacy enumNames, titled oneOf consts, non-string members', () => {
  const f = byName(
    planForm({
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['red', 'green'] },
        legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
        titled: {
          type: 'string',
          oneOf: [
            { const: 'lo', title: 'Low' },
            { const: 'hi', title: 'High' },
          ],
        },
        level: { type: 'integer', enum: [1, 2, 3] },
        fixed: { const: 'only' },
      },
    }).fields,
  );
  assert.equal(f.color.kind, 'enum');
  assert.deepEqual(f.color.options, [
    { value: 'red', label: 'red' },
    { value: 'green', label: 'green' },
  ]);
  assert.deepEqual(
    f.legacy.options?.map((o) => o.label),
    ['Alpha', 'Beta'],
  );
  assert.deepEqual(
    f.titled.options?.map((o) => [o.value, o.label]),
    [
      ['lo', 'Low'],
      ['hi', 'High'],
    ],
  );
  assert.equal(f.level.kind, 'enum');
  assert.deepEqual(
    f.level.options?.map((o) => o.value),
    [1, 2, 3],
  );
  assert.deepEqual(
    f.fixed.options?.map((o) => o.value),
    ['only'],
  );
});

test('multi-select arrays (untitled and titled) become multi-enum with item bounds', () => {
  const f = byName(
    planForm({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 },
        sizes: {
          type: 'array',
          items: {
            anyOf: [
              { const: 's', title: 'Small' },
              { const: 'l', title: 'Large' },
            ],
          },
        },
      },
    }).fields,
  );
  assert.equal(f.tags.kind, 'multi-enum');
  assert.deepEqual([f.tags.minItems, f.tags.maxItems], [1, 2]);
  assert.deepEqual(
    f.tags.options?.map((o) => o.value),
    ['x', 'y', 'z'],
  );
  assert.equal(f.sizes.kind, 'multi-enum');
  assert.deepEqual(
    f.sizes.options?.map((o) => o.label),
    ['Small', 'Large'],
  );
});

test('nested objects, free arrays and real unions become JSON fields with their shape', () => {
  const f = byName(
    planForm({
      type: 'object',
      properties: {
        config: { type: 'object', properties: { a: { type: 'number' } } },
        list: { type: 'array', items: { type: 'number' } },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        untyped: {},
      },
    }).fields,
  );
  assert.deepEqual([f.config.kind, f.config.jsonShape], ['json', 'object']);
  assert.deepEqual([f.list.kind, f.list.jsonShape], ['json', 'array']);
  assert.deepEqual([f.either.kind, f.either.jsonShape], ['json', 'any']);
  assert.deepEqual([f.untyped.kind, f.untyped.jsonShape], ['json', 'any']);
});

test('Optional[X] unions and type arrays with null keep the real widget and mark the field nullable', () => {
  const f = byName(
    planForm({
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'integer', minimum: 3 }, { type: 'null' }], default: null, title: 'A' },
        b: { type: ['string', 'null'] },
        c: { type: 'string' },
      },
    }).fields,
  );
  assert.deepEqual([f.a.kind, f.a.nullable, f.a.minimum, f.a.label, f.a.defaultValue], ['integer', true, 3, 'A', null]);
  assert.deepEqual([f.b.kind, f.b.nullable], ['string', true]);
  assert.equal(f.c.nullable, false);
});

test('local $refs are followed; nested JSON fields keep the root $defs for validation', () => {
  const schema = {
    type: 'object',
    properties: { mode: { $ref: '#/$defs/Mode' }, inner: { $ref: '#/$defs/Inner' } },
    $defs: {
      Mode: { type: 'string', enum: ['fast', 'slow'], description: 'speed' },
      Inner: { type: 'object', properties: { m: { $ref: '#/$defs/Mode' } } },
    },
  };
  const f = byName(planForm(schema).fields);
  assert.equal(f.mode.kind, 'enum');
  assert.equal(f.mode.description, 'speed');
  assert.equal(f.inner.kind, 'json');
  assert.deepEqual(f.inner.schema.$defs, schema.$defs);
  assert.deepEqual(
    resolveRef(schema, { $ref: '#/$defs/Nope' }),
    { $ref: '#/$defs/Nope' },
    'a missing target stays unresolved',
  );
});

test('a $ref cycle does not loop forever', () => {
  const schema = { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: '#/$defs/A' } } };
  const plan = planForm(schema);
  assert.equal(plan.fields[0].kind, 'json');
});

test('schemas that are not one-input-per-property are edited as one JSON document', () => {
  assert.deepEqual(planForm({ type: 'object', additionalProperties: { type: 'string' } }).wholeDocument, true);
  assert.deepEqual(planForm({ type: 'object', patternProperties: { '^x': {} } }).wholeDocument, true);
  assert.deepEqual(planForm({ type: 'array' }).wholeDocument, true);
  // No arguments at all: nothing to ask, nothing to edit.
  assert.deepEqual(planForm({ type: 'object' }), { fields: [], wholeDocument: false, root: { type: 'object' } });
  assert.deepEqual(planForm({ type: 'object', properties: {}, additionalProperties: false }).wholeDocument, false);
  assert.deepEqual(planForm(undefined).fields, []);
});

test('prompt arguments become a schema of strings with their required flags', () => {
  const plan = planForm(
    promptArgumentsSchema([{ name: 'city', description: 'Where', required: true }, { name: 'style' }]),
  );
  assert.deepEqual(
    plan.fields.map((f) => [f.name, f.kind, f.required, f.description]),
    [
      ['city', 'string', true, 'Where'],
      ['style', 'string', false, undefined],
    ],
  );
});
