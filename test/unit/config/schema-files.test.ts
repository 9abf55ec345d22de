/** The JSON schemas in media/ describe the same entry as the zod schema, with descriptions for hover docs. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SERVER_ENTRY_KEYS, serverEntrySchema } from '../../../src/core/config/schema.js';
import { embeddedEntry, mediaSchemas, schemaText } from '../../../src/core/config/schema-json.js';
import { INPUT_TYPES, inputDeclarationSchema } from '../../../src/core/config/inputs-schema.js';

const media = join(__dirname, '..', '..', '..', 'media');
const load = (name: string) =>
  JSON.parse(readFileSync(join(media, name), 'utf8')) as Record<string, unknown> & {
    properties: Record<string, Record<string, unknown>>;
  };

test('mcp-server.schema.json: same keys as the zod schema, every property described', () => {
  const s = load('mcp-server.schema.json');
  assert.deepEqual(Object.keys(s.properties).sort(), [...SERVER_ENTRY_KEYS].sort());
  for (const [k, v] of Object.entries(s.properties))
    assert.ok(typeof v.description === 'string' && v.description.length > 20, `${k} has a description`);
  const oauth = s.properties.oauth.properties as Record<string, { description?: string }>;
  for (const [k, v] of Object.entries(oauth)) assert.ok(v.description, `oauth.${k} has a description`);
  assert.deepEqual(s.properties.type.enum, ['stdio', 'sse', 'http', 'ws', 'streamableHttp', 'streamable-http']);
});

test('.mcp.json and .vscode/mcp.json schemas embed exactly the same server entry', () => {
  const { $schema: _s, ...entry } = load('mcp-server.schema.json');
  const mcp = load('mcp.json.schema.json');
  const vs = load('vscode-mcp.json.schema.json');
  assert.deepEqual((mcp.definitions as Record<string, unknown>).server, entry);
  assert.deepEqual((vs.definitions as Record<string, unknown>).server, entry);
  assert.deepEqual(mcp.properties.mcpServers.additionalProperties, { $ref: '#/definitions/server' });
  assert.deepEqual(vs.properties.servers.additionalProperties, { $ref: '#/definitions/server' });
  const inputs = vs.properties.inputs as {
    items: { required: string[]; properties: Record<string, { description?: string }> };
  };
  assert.deepEqual(inputs.items.required, ['id']);
  for (const k of ['id', 'description', 'password']) assert.ok(inputs.items.properties[k].description);
});

test('package.json points at these files', () => {
  const pkg = JSON.parse(readFileSync(join(media, '..', 'package.json'), 'utf8')) as {
    contributes: { jsonValidation: { url: string }[] };
  };
  const urls = pkg.contributes.jsonValidation.map((v) => v.url);
  assert.ok(urls.includes('./media/mcp.json.schema.json'));
  assert.ok(urls.includes('./media/vscode-mcp.json.schema.json'));
});

test('the mcpHost.servers setting carries the same entry schema inline (VS Code does not follow file $refs in settings)', () => {
  const pkg = JSON.parse(readFileSync(join(media, '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { additionalProperties?: unknown }> } };
  };
  const { $schema: _s, ...entry } = load('mcp-server.schema.json');
  assert.deepEqual(pkg.contributes.configuration.properties['mcpHost.servers']!.additionalProperties, entry);
});

test('the committed schema files are exactly what scripts/gen-schema.mjs generates from the zod schema', () => {
  const files = mediaSchemas();
  assert.deepEqual(Object.keys(files).sort(), [
    'mcp-server.schema.json',
    'mcp.json.schema.json',
    'vscode-mcp.json.schema.json',
  ]);
  for (const [name, schema] of Object.entries(files))
    assert.equal(
      readFileSync(join(media, name), 'utf8'),
      schemaText(schema),
      `media/${name} is stale: run npm run build`,
    );
  const pkg = JSON.parse(readFileSync(join(media, '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { additionalProperties?: unknown }> } };
  };
  assert.deepEqual(pkg.contributes.configuration.properties['mcpHost.servers']!.additionalProperties, embeddedEntry());
});

test('generated: a zod-only change reaches the JSON schema (the docs ride on .meta(), the shape on zod)', () => {
  const entry = embeddedEntry() as { properties: Record<string, Record<string, unknown>> };
  const oauth = entry.properties.oauth.properties as Record<string, unknown>;
  assert.deepEqual(
    Object.keys(oauth),
    Object.keys(serverEntrySchema.shape.oauth.unwrap().shape),
    'every zod oauth key, in order',
  );
  assert.deepEqual(oauth.callbackPort, {
    type: 'integer',
    minimum: 1,
    maximum: 65535,
    description:
      'Fixed port of the loopback redirect (http://127.0.0.1:<port>/callback), when the client registration requires one.',
  });
  assert.deepEqual(entry.properties.timeout.exclusiveMinimum, 0, 'from z.number().positive()');
  assert.deepEqual(
    entry.properties.env.additionalProperties,
    { type: ['string', 'number', 'boolean'] },
    'from the zod union',
  );
  const dev = entry.properties.dev as {
    properties: { debug: { required: string[]; properties: { type: { enum: string[] } } } };
  };
  assert.deepEqual(dev.properties.debug.required, ['type'], 'a required zod key is required in the JSON schema');
  assert.deepEqual(dev.properties.debug.properties.type.enum, ['node', 'python'], 'from z.enum');
});

test('generated: the inputs of .vscode/mcp.json come from the zod schema the loader reads them with', () => {
  const vs = mediaSchemas()['vscode-mcp.json.schema.json'] as {
    properties: {
      inputs: { type: string; items: { required: string[]; properties: Record<string, Record<string, unknown>> } };
    };
  };
  const items = vs.properties.inputs.items;
  assert.equal(vs.properties.inputs.type, 'array');
  assert.deepEqual(Object.keys(items.properties), Object.keys(inputDeclarationSchema.shape), 'every zod key, in order');
  assert.deepEqual(
    items.properties.type!.enum,
    [...INPUT_TYPES],
    'every input type the loader accepts (pickString and command too)',
  );
  assert.deepEqual(items.required, ['id'], 'type has a default, so only id is required');
  assert.equal(items.properties.options!.minItems, 1, 'from z.array().min(1)');
  for (const [k, v] of Object.entries(items.properties))
    assert.ok(typeof v.description === 'string' && v.description.length > 10, `inputs.${k} has a description`);
});
