import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { HostJsonSchemaValidator, hostJsonSchemaValidator } from '../../../src/core/capabilities/sdk-validator.js';

// `prefixItems` exists from 2020-12 on: a draft-07 engine ignores it and accepts anything.
const tuple = { type: 'array', prefixItems: [{ type: 'string' }] };

test('a schema without $schema is 2020-12, as the SDK default validator reads it', () => {
  const check = new HostJsonSchemaValidator().getValidator(tuple);
  assert.equal(check(['a']).valid, true);
  const bad = check([1]);
  assert.equal(bad.valid, false);
  assert.match(bad.errorMessage ?? '', /must be string/);
});

test('draft-07 and draft-06 go to the classic engine, 2019-09 to its own, any other dialect is refused', () => {
  const v = new HostJsonSchemaValidator();
  for (const $schema of ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-06/schema#'])
    assert.equal(v.getValidator({ ...tuple, $schema })([1]).valid, true, $schema);
  const s2019 = { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'string', minLength: 2 };
  assert.equal(v.getValidator(s2019)('a').valid, false);
  assert.throws(
    () => v.getValidator({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' }),
    /unsupported dialect/,
  );
});

test("the SDK client checks a tool's structured content with it", async () => {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'sum',
        inputSchema: { type: 'object' as const },
        outputSchema: { type: 'object' as const, properties: { sum: { type: 'number' } }, required: ['sum'] },
      },
    ],
  }));
  server.setRequestHandler('tools/call', () => ({ content: [], structuredContent: { sum: 'three' } }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const seen: unknown[] = [];
  const client = new Client(
    { name: 'c', version: '1' },
    {
      jsonSchemaValidator: {
        getValidator: (schema) => {
          seen.push(schema);
          return hostJsonSchemaValidator.getValidator(schema);
        },
      },
    },
  );
  await client.connect(a);
  try {
    await client.listTools();
    await assert.rejects(client.callTool({ name: 'sum', arguments: {} }), /sum|number|structured/i);
    assert.equal(seen.length, 1);
  } finally {
    await client.close();
    await server.close();
  }
});
