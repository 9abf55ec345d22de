import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateServerEntry } from '../../../src/core/config/schema.js';

const loc = { file: '/w/.vscode/mcp.json', jsonPath: ['servers', 's'], name: 's', scope: 'workspace' as const };

test('dev: a watch string becomes a list; debug type is kept', () => {
  const r = validateServerEntry(
    { command: 'node', args: ['build/index.js'], dev: { watch: 'src/**/*.ts', debug: { type: 'node' } } },
    loc,
  );
  assert.ok(r.ok);
  assert.deepEqual(r.config.type === 'stdio' && r.config.dev, { watch: ['src/**/*.ts'], debug: { type: 'node' } });
  const list = validateServerEntry({ command: 'python', dev: { watch: ['a/*.py', 'b/*.py'] } }, loc);
  assert.ok(list.ok);
  assert.deepEqual(list.config.type === 'stdio' && list.config.dev, { watch: ['a/*.py', 'b/*.py'] });
});

test('dev: a bad watch or debug type is a clear error at its JSON path; on a remote server it is ignored with a warning', () => {
  const bad = validateServerEntry({ command: 'node', dev: { watch: 3 } }, loc);
  assert.ok(!bad.ok);
  assert.match(
    bad.problems[0]!.message,
    /"dev.watch" of server "s" must be a glob string or a list of glob strings, but it is/,
  );
  assert.deepEqual(bad.problems[0]!.jsonPath, ['servers', 's', 'dev', 'watch']);
  const dbg = validateServerEntry({ command: 'node', dev: { debug: { type: 'ruby' } } }, loc);
  assert.ok(!dbg.ok);
  assert.match(dbg.problems[0]!.message, /must be "node" or "python"/);
  const remote = validateServerEntry({ url: 'https://x.example/mcp', dev: { watch: 'x' } }, loc);
  assert.ok(remote.ok);
  assert.match(remote.warnings[0]!.message, /"dev" of server "s" is ignored/);
});
