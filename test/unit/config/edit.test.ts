/** Editing config text keeps comments, formatting and other entries. */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ConfigEditError,
  removeServerEntry,
  setServerEntry,
  setServerEntryEdits,
  updateServerEntry,
} from '../../../src/core/config/edit.js';
import { loadConfig } from '../../../src/core/config/load.js';
import { names, server, tempTree } from './helpers.js';

const VSCODE = `{
\t// Servers for this repo
\t"inputs": [{ "id": "tok", "type": "promptString", "password": true }],
\t"servers": {
\t\t"github": {
\t\t\t"url": "https://api.github.test/mcp", // remote
\t\t\t"headers": { "Authorization": "Bearer \${input:tok}" }
\t\t},
\t\t/* keep this one */
\t\t"local": { "command": "node", "args": ["s.js"] },
\t},
}
`;

test('add to .vscode/mcp.json: comments, tabs, trailing commas and other entries survive; the loader sees the new server', async (t) => {
  const dir = await tempTree(t, { '.vscode/mcp.json': VSCODE });
  const file = join(dir, '.vscode', 'mcp.json');
  const out = setServerEntry(await readFile(file, 'utf8'), 'vscode-mcp.json', 'time', {
    command: 'uvx',
    args: ['mcp-server-time'],
  });
  assert.ok(
    out.startsWith(VSCODE.slice(0, VSCODE.indexOf('\t\t"local"'))),
    'everything before the insertion is byte-identical',
  );
  assert.match(out, /\/\/ Servers for this repo/);
  assert.match(out, /\/\/ remote/);
  assert.match(out, /\/\* keep this one \*\//);
  assert.match(out, /\n\t\t"time": \{\n\t\t\t"command": "uvx"/, "inserted with the file's tab indentation");
  await writeFile(file, out);
  const c = await loadConfig({ folders: [dir], env: {}, inputs: { resolve: () => Promise.resolve('x') } });
  assert.deepEqual(names(c), ['github', 'local', 'time']);
});

test('update replaces one entry; updateServerEntry patches fields and keeps comments inside the entry', () => {
  const replaced = setServerEntry(VSCODE, 'vscode-mcp.json', 'local', { command: 'python3', args: ['-m', 'srv'] });
  assert.match(replaced, /"local": \{\n\t\t\t"command": "python3"/);
  assert.doesNotMatch(replaced, /"s\.js"/);
  assert.match(replaced, /"github": \{\n\t\t\t"url": "https:\/\/api\.github\.test\/mcp", \/\/ remote/);

  const patched = updateServerEntry(VSCODE, 'vscode-mcp.json', 'github', { disabled: true, headers: undefined });
  assert.match(patched, /"url": "https:\/\/api\.github\.test\/mcp", \/\/ remote/);
  assert.match(patched, /"disabled": true/);
  assert.doesNotMatch(patched, /Authorization/);
  assert.match(patched, /"local": \{ "command": "node", "args": \["s\.js"\] \}/);
});

test('remove deletes only that entry; removing a missing name changes nothing', () => {
  const out = removeServerEntry(VSCODE, 'vscode-mcp.json', 'github');
  assert.doesNotMatch(out, /github/);
  assert.match(out, /\/\/ Servers for this repo/);
  assert.match(out, /"local": \{ "command": "node", "args": \["s\.js"\] \}/);
  assert.equal(removeServerEntry(VSCODE, 'vscode-mcp.json', 'nope'), VSCODE);
});

test('.mcp.json: creates content for a missing or empty file, keeps 4-space indentation and CRLF when present', () => {
  const created = setServerEntry(undefined, 'mcp.json', 'a', { command: 'node' });
  assert.deepEqual(JSON.parse(created), { mcpServers: { a: { command: 'node' } } });
  assert.ok(created.endsWith('\n'));
  assert.deepEqual(JSON.parse(setServerEntry('  \n', 'mcp.json', 'a', { command: 'node' })), {
    mcpServers: { a: { command: 'node' } },
  });
  const crlf = '{\r\n    "other": 1,\r\n    "mcpServers": {\r\n        "a": { "command": "node" }\r\n    }\r\n}\r\n';
  const out = setServerEntry(crlf, 'mcp.json', 'b', { url: 'https://b.test/mcp' });
  assert.ok(!/[^\r]\n/.test(out), 'no bare LF introduced');
  assert.match(out, /\r\n {8}"b": \{\r\n {12}"url"/);
  assert.deepEqual(JSON.parse(out), {
    other: 1,
    mcpServers: { a: { command: 'node' }, b: { url: 'https://b.test/mcp' } },
  });
  // No mcpServers yet: the key is added, other keys kept.
  assert.deepEqual(JSON.parse(setServerEntry('{ "x": true }', 'mcp.json', 'a', { command: 'node' })), {
    x: true,
    mcpServers: { a: { command: 'node' } },
  });
});

test('settings.json: the entry goes under "mcpHost.servers" and other settings survive', async (t) => {
  const text = '{\n  // editor\n  "editor.fontSize": 14,\n  "mcpHost.servers": {}\n}\n';
  const out = setServerEntry(text, 'settings', 'mine', { command: 'node', args: ['x'] });
  assert.match(out, /\/\/ editor/);
  assert.match(out, /"editor.fontSize": 14/);
  const { parse } = await import('jsonc-parser');
  assert.deepEqual((parse(out) as Record<string, unknown>)['mcpHost.servers'], {
    mine: { command: 'node', args: ['x'] },
  });
  const c = await loadConfig({
    folders: [],
    env: {},
    userServers: (parse(out) as Record<string, unknown>)['mcpHost.servers'],
  });
  assert.equal(server(c, 'mine').source.file, 'settings:mcpHost.servers');
  void t;
});

test('bad input is refused with a clear error and the text is untouched', () => {
  const broken = '{ "mcpServers": { "a": { "command": "node" } ';
  assert.throws(
    () => setServerEntry(broken, 'mcp.json', 'b', { command: 'node' }),
    (e: unknown) =>
      e instanceof ConfigEditError && e.code === 'invalid-json' && /line 1, column \d+.*Fix it first/.test(e.message),
  );
  assert.throws(
    () => setServerEntry('[1]', 'mcp.json', 'b', { command: 'node' }),
    (e: unknown) => e instanceof ConfigEditError && e.code === 'not-an-object',
  );
  assert.throws(
    () => setServerEntry('{"mcpServers": []}', 'mcp.json', 'b', { command: 'node' }),
    (e: unknown) => e instanceof ConfigEditError && e.code === 'not-an-object',
  );
  assert.throws(
    () => setServerEntry('{}', 'mcp.json', '', { command: 'node' }),
    (e: unknown) => e instanceof ConfigEditError && e.code === 'invalid-name',
  );
  assert.throws(
    () => setServerEntry('{}', 'mcp.json', 'b', { command: 'node', url: 'https://x.test' }),
    (e: unknown) =>
      e instanceof ConfigEditError && e.code === 'invalid-entry' && /both "command" and "url"/.test(e.message),
  );
  assert.throws(
    () => updateServerEntry('{"mcpServers":{}}', 'mcp.json', 'nope', { disabled: true }),
    (e: unknown) => e instanceof ConfigEditError && e.code === 'not-found',
  );
  assert.throws(
    () => updateServerEntry('{"mcpServers":{"a":{"command":"node"}}}', 'mcp.json', 'a', { url: 'https://x.test' }),
    (e: unknown) => e instanceof ConfigEditError && e.code === 'invalid-entry',
  );
});

test('setServerEntryEdits returns minimal edits (for a WorkspaceEdit)', () => {
  const text = '{\n  "mcpServers": {\n    "a": { "command": "node" }\n  }\n}\n';
  const edits = setServerEntryEdits(text, 'mcp.json', 'b', { command: 'python3' });
  assert.equal(edits.length, 1);
  assert.ok(edits[0].offset > text.indexOf('"a"'), 'the edit starts after the existing entry');
});

test('exact results: comments stay with their entries through remove, patch and add', () => {
  const T =
    '{\n\t"servers": {\n\t\t"github": {\n\t\t\t"url": "https://g.test/mcp", // remote\n\t\t\t"headers": { "A": "b" }\n\t\t}, // gh\n\t\t/* keep */\n\t\t"local": { "command": "node" },\n\t},\n}\n';
  assert.equal(
    removeServerEntry(T, 'vscode-mcp.json', 'github'),
    '{\n\t"servers": {\n\t\t/* keep */\n\t\t"local": { "command": "node" },\n\t},\n}\n',
  );
  assert.equal(
    updateServerEntry(T, 'vscode-mcp.json', 'github', { headers: undefined, disabled: true }),
    '{\n\t"servers": {\n\t\t"github": {\n\t\t\t"url": "https://g.test/mcp", // remote\n\t\t\t"disabled": true\n\t\t}, // gh\n\t\t/* keep */\n\t\t"local": { "command": "node" },\n\t},\n}\n',
  );
  assert.equal(
    updateServerEntry(T, 'vscode-mcp.json', 'local', { args: ['x'] }),
    T.replace('"local": { "command": "node" }', '"local": { "command": "node", "args": ["x"] }'),
  );
  const J = '{\n  "mcpServers": {\n    "a": {"command": "y"} // about a\n  }\n}';
  assert.equal(
    setServerEntry(J, 'mcp.json', 'n', { command: 'x' }),
    '{\n  "mcpServers": {\n    "a": {"command": "y"}, // about a\n    "n": {\n      "command": "x"\n    }\n  }\n}',
  );
  const two = '{\n  "mcpServers": {\n    "a": { "command": "node" },\n    "b": { "command": "py" }\n  }\n}\n';
  assert.equal(
    removeServerEntry(two, 'mcp.json', 'b'),
    '{\n  "mcpServers": {\n    "a": { "command": "node" }\n  }\n}\n',
    'no trailing comma left in plain JSON',
  );
  assert.deepEqual(JSON.parse(removeServerEntry(removeServerEntry(two, 'mcp.json', 'b'), 'mcp.json', 'a')), {
    mcpServers: {},
  });
});
