/** A file that turns unreadable keeps its servers running from the last good read. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keepLastGood } from '../../../src/core/config/last-good.js';
import { def } from '../extension/fixtures.js';

test('servers of a file that turned invalid keep running from the last good load', () => {
  const a = def('a');
  const b = def('b');
  const other = def('o', { file: '/w/.vscode/mcp.json', scope: 'workspace' });
  const kept = keepLastGood([a, b, other], {
    servers: [],
    problems: [{ severity: 'error', code: 'invalid-json', message: 'bad', file: '/w/.mcp.json', jsonPath: [] }],
  });
  assert.deepEqual(
    kept.map((d) => d.name),
    ['a', 'b'],
    'the other file was read fine and has no servers now',
  );
});

test('one invalid entry keeps its last good version; a removed entry goes', () => {
  const a = def('a');
  const b = def('b');
  const a2 = { ...a, hash: 'new' };
  const kept = keepLastGood([a, b], {
    servers: [a2],
    problems: [
      {
        severity: 'error',
        code: 'schema',
        message: 'x',
        file: '/w/.mcp.json',
        jsonPath: ['mcpServers', 'b', 'args'],
        server: 'b',
      },
    ],
  });
  assert.deepEqual(kept, [a2, b]);
  assert.deepEqual(keepLastGood([a, b], { servers: [a2], problems: [] }), [a2]);
});
