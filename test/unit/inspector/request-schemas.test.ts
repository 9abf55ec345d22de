import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paramsSchema, paramsTemplate, requestMethods } from '../../../src/core/inspector/request-schemas.js';

test('the spec request methods come from the SDK', () => {
  const methods = requestMethods();
  for (const m of [
    'ping',
    'initialize',
    'tools/list',
    'tools/call',
    'resources/read',
    'prompts/get',
    'completion/complete',
    'logging/setLevel',
  ])
    assert.ok(methods.includes(m), m);
});

test('params schemas: tools/call needs a name; unknown methods have none', () => {
  const s = paramsSchema('tools/call')!;
  assert.equal(s.type, 'object');
  assert.ok((s.required as string[]).includes('name'));
  assert.ok('arguments' in (s.properties as Record<string, unknown>));
  assert.equal(paramsSchema('no/such'), undefined);
  assert.deepEqual(paramsTemplate('tools/call'), { name: '' });
  assert.deepEqual(paramsTemplate('resources/read'), { uri: '' });
  assert.deepEqual(paramsTemplate('tools/list'), {});
});
