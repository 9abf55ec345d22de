import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostTool } from '../../../src/core/host-api.js';
import { validateToolArgs } from '../../../src/core/capabilities/index.js';
import { validatorFor } from '../../../src/core/capabilities/validate.js';
import { planForm } from '../../../src/core/calls/schema-plan.js';
import { validateValue } from '../../../src/core/calls/validate-value.js';

function tool(inputSchema: Record<string, unknown>): HostTool {
  return { server: 's', name: 't', qualifiedName: 'mcp__s__t', description: '', inputSchema, annotations: {} };
}

const add = tool({
  type: 'object',
  properties: {
    a: { type: 'integer' },
    b: { type: 'number' },
    mode: { enum: ['fast', 'slow'] },
    nested: { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } },
  },
  required: ['a', 'b'],
  additionalProperties: false,
});

test('valid arguments give no problems', () => {
  assert.deepEqual(validateToolArgs(add, { a: 1, b: 2.5 }), []);
  assert.deepEqual(validateToolArgs(add, { a: 1, b: 2, mode: 'fast', nested: { when: '2025-01-01T00:00:00Z' } }), []);
});

test('type errors name the path', () => {
  assert.deepEqual(validateToolArgs(add, { a: 1.5, b: 2 }), ['/a: must be integer']);
  assert.deepEqual(validateToolArgs(add, { a: 1, b: 2, nested: { when: 'yesterday' } }), [
    '/nested/when: must match format "date-time"',
  ]);
});

test('missing, unknown and enum problems read like sentences, all reported at once', () => {
  const problems = validateToolArgs(add, { b: 'x', extra: true, mode: 'medium' });
  assert.ok(problems.includes("/: missing required property 'a'"), problems.join('\n'));
  assert.ok(problems.includes("/: unknown property 'extra'"), problems.join('\n'));
  assert.ok(problems.includes('/b: must be number'), problems.join('\n'));
  assert.ok(problems.includes('/mode: must be one of ["fast","slow"]'), problems.join('\n'));
});

test('arguments that are not an object are refused', () => {
  assert.deepEqual(validateToolArgs(add, [] as unknown as Record<string, unknown>), [
    '/: arguments must be a JSON object',
  ]);
});

test('draft 2020-12 schemas (as zod 4 emits them) validate', () => {
  const t = tool({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { x: { type: 'string', minLength: 2 } },
    required: ['x'],
  });
  assert.deepEqual(validateToolArgs(t, { x: 'ok' }), []);
  assert.deepEqual(validateToolArgs(t, { x: 'o' }), ['/x: must NOT have fewer than 2 characters']);
});

test('draft-07 and unknown $schema URIs validate with the draft-07 engine', () => {
  const t = tool({
    $schema: 'http://json-schema.org/draft-04/schema#',
    type: 'object',
    properties: { n: { type: 'integer', minimum: 3 } },
  });
  assert.deepEqual(validateToolArgs(t, { n: 1 }), ['/n: must be >= 3']);
});

test('a schema ajv cannot compile does not block the call', () => {
  const t = tool({ type: 'object', properties: { x: { $ref: '#/definitions/missing' } } });
  assert.deepEqual(validateToolArgs(t, { x: 1 }), []);
});

test('the compiled validator is cached per schema object', () => {
  const t = tool({ type: 'object', properties: { n: { type: 'integer' } } });
  assert.deepEqual(validateToolArgs(t, { n: 'a' }), ['/n: must be integer']);
  // Mutating the schema in place does not recompile: the cache is keyed by the object.
  (t.inputSchema.properties as Record<string, Record<string, unknown>>).n!.type = 'string';
  assert.deepEqual(validateToolArgs(t, { n: 'a' }), ['/n: must be integer']);
  // A new schema object (as a refreshed tools/list brings) is compiled afresh.
  const fresh = tool(JSON.parse(JSON.stringify(t.inputSchema)) as Record<string, unknown>);
  assert.deepEqual(validateToolArgs(fresh, { n: 'a' }), []);
});

test('servers may reuse the same $id with different schemas', () => {
  const a = tool({ $id: 'urn:input', type: 'object', properties: { x: { type: 'string' } } });
  const b = tool({ $id: 'urn:input', type: 'object', properties: { x: { type: 'integer' } } });
  assert.deepEqual(validateToolArgs(a, { x: 1 }), ['/x: must be string']);
  assert.deepEqual(validateToolArgs(b, { x: 'a' }), ['/x: must be integer']);
});

test('schemas with internal $refs validate after the engine forgets them', () => {
  const t = tool({
    type: 'object',
    properties: { r: { $ref: '#/definitions/s' } },
    definitions: { s: { type: 'string' } },
  });
  assert.deepEqual(validateToolArgs(t, { r: 'ok' }), []);
  assert.deepEqual(validateToolArgs(t, { r: 2 }), ['/r: must be string']);
});

test('one validator: tool arguments and a form field of the same 2020-12 schema agree (prefixItems, items: false)', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false } },
  };
  const t = tool(schema);
  const field = planForm(schema).fields.find((f) => f.name === 'pair')!;
  assert.equal(field.kind, 'json');
  // Draft-07 reads `items: false` as "no items at all" and ignores prefixItems: [1, "a"] would fail there.
  assert.deepEqual(validateToolArgs(t, { pair: [1, 'a'] }), []);
  assert.equal(validateValue(field.schema, [1, 'a'], 'pair'), undefined);
  assert.equal(validateToolArgs(t, { pair: [1, 'a', 3] }).length, 1);
  assert.match(validateValue(field.schema, [1, 'a', 3], 'pair') ?? '', /^pair must NOT have more than 2 items$/);
  assert.match(validateValue(field.schema, ['a', 'a'], 'pair') ?? '', /^pair\/0 must be number$/);
  assert.equal(validatorFor(field.schema), validatorFor(field.schema), 'compiled once per schema object');
});
