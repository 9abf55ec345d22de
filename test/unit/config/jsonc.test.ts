/** findEntryOffset (jump to an entry) and parse-error positions. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findEntryOffset, formatJsonPath, lineColumn, parseConfigText } from '../../../src/core/config/jsonc.js';

const TEXT =
  '{\n  // comment\n  "servers": {\n    "a": { "command": "x" },\n    "b": {\n      "url": "https://b.test"\n    }\n  }\n}\n';

test('findEntryOffset points at the property (key through value) with 1-based line and column', () => {
  const b = findEntryOffset(TEXT, ['servers', 'b'])!;
  assert.equal(TEXT.slice(b.offset, b.offset + 3), '"b"');
  assert.equal(TEXT.slice(b.offset + b.length - 1, b.offset + b.length), '}');
  assert.deepEqual({ line: b.line, column: b.column }, { line: 5, column: 5 });
  const url = findEntryOffset(TEXT, ['servers', 'b', 'url'])!;
  assert.equal(url.line, 6);
  assert.equal(findEntryOffset(TEXT, ['servers', 'nope']), undefined);
  assert.equal(findEntryOffset('not json at all {', ['x']), undefined);
});

test('findEntryOffset handles names with dots and the settings key', () => {
  const settings = '{\n  "editor.fontSize": 12,\n  "mcpHost.servers": { "my.server": { "command": "x" } }\n}';
  const loc = findEntryOffset(settings, ['mcpHost.servers', 'my.server'])!;
  assert.equal(settings.slice(loc.offset, loc.offset + 11), '"my.server"');
  assert.equal(loc.line, 3);
});

test('lineColumn and formatJsonPath', () => {
  assert.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
  assert.deepEqual(lineColumn('', 0), { line: 1, column: 1 });
  assert.equal(formatJsonPath(['mcpServers', 'my server', 'args', 2]), 'mcpServers["my server"].args[2]');
});

test('parseConfigText reports the first error with its position and how many more', () => {
  const r = parseConfigText('{\n  "a": 1\n  "b": 2\n  "c": 3\n}', '/f.json', { jsonc: false });
  assert.equal(r.value, undefined);
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0].line, 3);
  assert.match(r.problems[0].message, /expected ',' between entries \(and 1 more\)/);
  const bom = parseConfigText('\uFEFF{"a":1}', '/f.json', { jsonc: false }).value as object;
  assert.deepEqual({ ...bom }, { a: 1 });
  assert.equal(Object.getPrototypeOf(bom), null, 'config objects have no prototype');
});
