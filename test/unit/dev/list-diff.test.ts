import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLists, summarizeChanges, type DiffableLists } from '../../../src/core/dev/list-diff.js';

const empty: DiffableLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });

test('a tool added and another tool whose schema changed, summarised as the issue writes it', () => {
  const before: DiffableLists = {
    ...empty,
    tools: [{ name: 'echo', description: 'Echo', inputSchema: schema({ text: { type: 'string' } }) }],
  };
  const after: DiffableLists = {
    ...empty,
    tools: [
      { name: 'add', description: 'Adds', inputSchema: schema({ a: { type: 'number' } }) },
      {
        name: 'echo',
        description: 'Echo',
        inputSchema: schema({ text: { type: 'string' }, loud: { type: 'boolean' } }),
      },
    ],
  };
  const changes = diffLists(before, after);
  assert.deepEqual(changes, [
    { kind: 'tool', name: 'add', change: 'added' },
    { kind: 'tool', name: 'echo', change: 'changed', parts: ['schema'] },
  ]);
  assert.equal(summarizeChanges(changes), 'tool `add` added, `echo` schema changed');
});

test('key order in schemas is not a change; a description, annotation or output schema is', () => {
  const a = {
    name: 't',
    description: 'd',
    inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'x' } } },
  };
  const b = {
    name: 't',
    description: 'd',
    inputSchema: { properties: { x: { description: 'x', type: 'string' } }, type: 'object' },
  };
  assert.deepEqual(diffLists({ ...empty, tools: [a] }, { ...empty, tools: [b] }), []);
  const c = { ...b, description: 'new', annotations: { readOnlyHint: true }, outputSchema: schema({}) };
  assert.deepEqual(diffLists({ ...empty, tools: [a] }, { ...empty, tools: [c] })[0]!.parts, [
    'output schema',
    'description',
    'annotations',
  ]);
});

test('resources, templates and prompts: added, removed and changed, each kind named once per run', () => {
  const before: DiffableLists = {
    tools: [{ name: 'gone' }],
    resources: [{ uri: 'file:///a', name: 'a', mimeType: 'text/plain' }],
    resourceTemplates: [{ uriTemplate: 'db://{id}', name: 'row' }],
    prompts: [{ name: 'greet', arguments: [{ name: 'who' }] }],
  };
  const after: DiffableLists = {
    tools: [],
    resources: [
      { uri: 'file:///a', name: 'a', mimeType: 'text/markdown' },
      { uri: 'file:///b', name: 'b' },
    ],
    resourceTemplates: [],
    prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }] }],
  };
  const changes = diffLists(before, after);
  assert.equal(
    summarizeChanges(changes),
    'tool `gone` removed, resource `file:///a` MIME type changed, `file:///b` added, resource template `db://{id}` removed, prompt `greet` arguments changed',
  );
});

test('no changes, and a long list cut with a count', () => {
  assert.equal(summarizeChanges(diffLists(empty, empty)), 'no changes to tools, resources or prompts');
  const many: DiffableLists = { ...empty, tools: Array.from({ length: 15 }, (_, i) => ({ name: `t${i}` })) };
  const s = summarizeChanges(diffLists(empty, many), 3);
  assert.equal(s, 'tool `t0` added, `t1` added, `t2` added, and 12 more');
});
