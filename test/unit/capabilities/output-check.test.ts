// The host's check of structured output (capabilities/output-check.ts): the SDK's rules and messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outputCheckFor } from '../../../src/core/capabilities/output-check.js';

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

test('a tool without an output schema has no check', () => {
  assert.equal(outputCheckFor({ name: 't' }), undefined);
});

test('structured content is checked; an error result is not', () => {
  const check = outputCheckFor({ name: 't', outputSchema: schema })!;
  check({ structuredContent: { n: 1 } });
  assert.throws(() => check({ structuredContent: { n: 'x' } }), /does not match the tool's output schema: .*n/);
  assert.throws(() => check({}), /Tool t has an output schema but did not return structured content/);
  check({ isError: true });
  check({ isError: true, structuredContent: { n: 'x' } });
});

test('a schema that does not compile refuses the call before it is made, with the SDK message', () => {
  const bad = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
  assert.throws(
    () => outputCheckFor({ name: 't', outputSchema: bad }),
    /Tool 't' has an invalid outputSchema: .*dialect/,
  );
  // Remembered per schema object: asked again, the same answer.
  assert.throws(() => outputCheckFor({ name: 'u', outputSchema: bad }), /Tool 'u' has an invalid outputSchema/);
});

test('the schemas 2020-12 and draft-07 both apply', () => {
  const c2020 = outputCheckFor({
    name: 't',
    outputSchema: { ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' },
  })!;
  assert.throws(() => c2020({ structuredContent: {} }), /does not match/);
  const c7 = outputCheckFor({
    name: 't',
    outputSchema: { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' },
  })!;
  c7({ structuredContent: { n: 2 } });
});
