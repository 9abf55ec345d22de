/**
 * Hostile config files (issue 12, items 2, 9, 10): whatever a repository commits ends as a problem
 * naming its file while every other source still loads; nothing hangs, crashes or reads without
 * bound, and `__proto__` keys load nothing a plain JSON reader would not see.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { runCli } from '../../../src/cli/main.js';
import { capturedIo, type CapturedIo } from '../../support/cli-io.js';
import { loadConfig } from '../../../src/core/config/load.js';
import type { LoadedConfig } from '../../../src/core/config/types.js';

function folder(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sec-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder whose `.vscode/mcp.json` holds one good server, `good`. */
function withGoodWorkspaceServer(t: TestContext): string {
  const dir = folder(t);
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(
    join(dir, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { good: { command: 'node', args: ['x.js'] } } }),
  );
  return dir;
}

function problemFor(c: LoadedConfig, file: string) {
  const p = c.problems.find((x) => x.file === file && x.severity === 'error');
  assert.ok(p, `a problem names ${file}: ${JSON.stringify(c.problems)}`);
  return p;
}

function io(cwd: string): CapturedIo {
  return capturedIo(cwd);
}

test('a file nested 5,000 levels deep is a problem naming it; the other sources load', async (t) => {
  const dir = withGoodWorkspaceServer(t);
  const file = join(dir, '.mcp.json');
  writeFileSync(file, `{"mcpServers":{"deep":{"command":"x","args":${'['.repeat(5000)}${']'.repeat(5000)}}}}`);
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.match(problemFor(c, file).message, /nested more than \d+ levels/);
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );

  // The CLI lists the good server and names the file; it is not a connection failure (exit 3).
  const run = io(dir);
  assert.equal(await runCli(['list', '--json'], run), 0, run.err);
  assert.ok(run.err.includes(file), run.err);
  assert.deepEqual(
    (JSON.parse(run.out) as { name: string }[]).map((s) => s.name),
    ['good'],
  );
});

test('deep nesting in objects and inside a JSONC workspace file is refused the same way', async (t) => {
  const dir = folder(t);
  mkdirSync(join(dir, '.vscode'));
  const file = join(dir, '.vscode', 'mcp.json');
  writeFileSync(file, `// hostile\n{"servers":{"a":${'{"x":'.repeat(3000)}1${'}'.repeat(3000)}}}`);
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { good: { command: 'node' } } }));
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.equal(problemFor(c, file).code, 'too-deep');
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );
});

test('.mcp.json as a symlink to /dev/zero is refused at once as not a regular file', async (t) => {
  const dir = withGoodWorkspaceServer(t);
  const file = join(dir, '.mcp.json');
  symlinkSync('/dev/zero', file);
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.match(problemFor(c, file).message, /not a regular file/i);
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );
});

test('.mcp.json as a FIFO does not hang loading', async (t) => {
  const dir = withGoodWorkspaceServer(t);
  const file = join(dir, '.mcp.json');
  execFileSync('mkfifo', [file]);
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.match(problemFor(c, file).message, /not a regular file/i);
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );
});

test('a config file over the size cap is not read', async (t) => {
  const dir = withGoodWorkspaceServer(t);
  const file = join(dir, '.mcp.json');
  writeFileSync(file, '');
  truncateSync(file, 64 * 1024 * 1024); // sparse: no disk used
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.match(problemFor(c, file).message, /over the 16 MB limit/);
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );
});

test('an envFile that is /dev/zero or a FIFO is a problem of that server only', async (t) => {
  const dir = folder(t);
  symlinkSync('/dev/zero', join(dir, 'zero.env'));
  execFileSync('mkfifo', [join(dir, 'fifo.env')]);
  writeFileSync(join(dir, 'big.env'), '');
  truncateSync(join(dir, 'big.env'), 8 * 1024 * 1024);
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        zero: { command: 'node', envFile: 'zero.env' },
        fifo: { command: 'node', envFile: 'fifo.env' },
        big: { command: 'node', envFile: 'big.env' },
        good: { command: 'node' },
      },
    }),
  );
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['good'],
  );
  const byServer = (name: string) => c.problems.find((p) => p.server === name && p.code === 'env-file')?.message ?? '';
  assert.match(byServer('zero'), /zero\.env.*not a regular file/i);
  assert.match(byServer('fifo'), /fifo\.env.*not a regular file/i);
  assert.match(byServer('big'), /big\.env.*over the 1 MB limit/);
});

test('a root "__proto__" key loads nothing and is reported', async (t) => {
  const dir = folder(t);
  const file = join(dir, '.mcp.json');
  writeFileSync(file, '{"__proto__": {"mcpServers": {"hidden": {"command": "node", "args": ["evil.js"]}}}}');
  const c = await loadConfig({ folders: [dir], env: {} });
  // JSON.parse (what other hosts use) sees an own "__proto__" key and no mcpServers at all.
  assert.equal((JSON.parse('{"__proto__": {"mcpServers": {}}}') as { mcpServers?: unknown }).mcpServers, undefined);
  assert.deepEqual(c.servers, []);
  const p = problemFor(c, file);
  assert.equal(p.code, 'forbidden-key');
  assert.deepEqual(p.jsonPath, ['__proto__']);
});

test('a server named "__proto__" and nested "__proto__" keys are reported, not silently dropped or applied', async (t) => {
  const dir = folder(t);
  const file = join(dir, '.mcp.json');
  writeFileSync(
    file,
    '{"mcpServers": {"__proto__": {"command": "node"}, "ok": {"command": "node", "env": {"__proto__": {"A": "1"}, "B": "2"}}}}',
  );
  const c = await loadConfig({ folders: [dir], env: {} });
  const paths = c.problems.filter((p) => p.code === 'forbidden-key').map((p) => p.jsonPath);
  assert.deepEqual(paths, [
    ['mcpServers', '__proto__'],
    ['mcpServers', 'ok', 'env', '__proto__'],
  ]);
  assert.deepEqual(
    c.servers.map((s) => s.name),
    ['ok'],
  );
  const ok = c.servers[0]!.config;
  assert.ok(ok.type === 'stdio');
  assert.deepEqual({ ...ok.env }, { B: '2' });
  assert.equal((ok.env as Record<string, string>).A, undefined, 'no inherited A through a swapped prototype');
});
