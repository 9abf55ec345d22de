/** `.vscode/mcp.json` inputs of every type VS Code defines: read, checked, handed to the resolver. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { readInputs } from '../../../src/core/config/sources/workspace.js';
import type { ConfigProblem } from '../../../src/core/config/types.js';
import { envInputs } from '../../../src/cli/ports.js';
import { byCode, fakeInputs, json, server, tempTree } from './helpers.js';

test('promptString, pickString and command declarations are read with their fields', () => {
  const problems: ConfigProblem[] = [];
  const m = readInputs(
    [
      { id: 'token', type: 'promptString', description: 'API token', password: true },
      { id: 'region', type: 'pickString', options: ['eu', { label: 'United States', value: 'us' }], default: 'eu' },
      { id: 'pid', type: 'command', command: 'extension.pickProcess', args: { x: 1 } },
      { id: 'plain', description: 'no type means promptString', default: 'hello' },
    ],
    'mcp.json',
    problems,
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(m.get('token'), { id: 'token', type: 'promptString', description: 'API token', password: true });
  assert.deepEqual(m.get('region'), {
    id: 'region',
    type: 'pickString',
    default: 'eu',
    options: [
      { label: 'eu', value: 'eu' },
      { label: 'United States', value: 'us' },
    ],
  });
  assert.deepEqual(m.get('pid'), { id: 'pid', type: 'command', command: 'extension.pickProcess', args: { x: 1 } });
  assert.deepEqual(m.get('plain'), {
    id: 'plain',
    type: 'promptString',
    description: 'no type means promptString',
    default: 'hello',
  });
});

test('a bad declaration is reported at its path and left out; the others are kept', () => {
  const problems: ConfigProblem[] = [];
  const m = readInputs(
    [
      { id: 'a', type: 'pickString' },
      { id: 'b', type: 'command' },
      { id: 'c', type: 'promptText' },
      { id: 'd', type: 'pickString', options: [] },
      { id: 'ok', type: 'pickString', options: ['x'] },
    ],
    'mcp.json',
    problems,
  );
  assert.deepEqual([...m.keys()], ['ok']);
  assert.deepEqual(
    problems.map((p) => p.jsonPath),
    [
      ['inputs', 0, 'options'],
      ['inputs', 1, 'command'],
      ['inputs', 2, 'type'],
      ['inputs', 3, 'options'],
    ],
  );
  assert.match(problems[2]!.message, /"promptString", "pickString" or "command"/);
});

test('the resolver is handed the whole declaration of a pickString input', async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': json({
      inputs: [{ id: 'region', type: 'pickString', options: ['eu', 'us'], default: 'us', description: 'Region' }],
      servers: { s: { command: 'node', args: ['--region', '${input:region}'] } },
    }),
  });
  const inputs = fakeInputs({ region: 'eu' });
  const c = await loadConfig({ folders: [dir], env: {}, homeDir: dir, inputs, trusted: true });
  assert.deepEqual(byCode(c, 'unresolved-variable'), []);
  assert.deepEqual((server(c, 's').config as { args: string[] }).args, ['--region', 'eu']);
  assert.equal(inputs.calls.length, 1);
  assert.deepEqual(inputs.declarations[0], {
    id: 'region',
    type: 'pickString',
    description: 'Region',
    default: 'us',
    options: [
      { label: 'eu', value: 'eu' },
      { label: 'us', value: 'us' },
    ],
  });
});

test('the CLI takes MCP_HOST_INPUT_<ID>, else the declared default; a command input has no default', async () => {
  const r = envInputs({ MCP_HOST_INPUT_TOKEN: 'from-env' });
  const file = 'f';
  assert.equal(
    await r.resolve('token', { file, declaration: { id: 'token', type: 'promptString', default: 'd' } }),
    'from-env',
  );
  assert.equal(
    await r.resolve('region', {
      file,
      declaration: { id: 'region', type: 'pickString', options: [{ label: 'eu', value: 'eu' }], default: 'eu' },
    }),
    'eu',
  );
  assert.equal(
    await r.resolve('pid', { file, declaration: { id: 'pid', type: 'command', command: 'x', default: 'no' } }),
    undefined,
  );
});

test('fields of the wrong type are ignored, not fatal: the declaration is kept without them', () => {
  const problems: ConfigProblem[] = [];
  const m = readInputs(
    [
      { id: 'a', description: 5, password: 'yes', default: 1 },
      { id: 'b', type: 'pickString', options: ['x', 3, { value: 'y', label: 7 }, { label: 'no value' }] },
      { id: 'c', type: 'command', command: 'x.run', password: true },
      { type: 'promptString' },
    ],
    'mcp.json',
    problems,
  );
  assert.deepEqual(m.get('a'), { id: 'a', type: 'promptString' });
  assert.deepEqual(m.get('b'), {
    id: 'b',
    type: 'pickString',
    options: [
      { label: 'x', value: 'x' },
      { label: 'y', value: 'y' },
    ],
  });
  assert.deepEqual(m.get('c'), { id: 'c', type: 'command', command: 'x.run' }, 'password only applies to promptString');
  assert.deepEqual(
    problems.map((p) => p.jsonPath),
    [['inputs', 3]],
  );
  assert.match(problems[0]!.message, /needs an "id"/);
});
