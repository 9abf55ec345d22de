// The shared gateway's parts that need no process of their own: who shares (key.ts), the start lock
// (lock.ts), the stderr lines and token of the handshake (hello.ts). The processes, the socket
// and the races between sessions: test/integration/gateway/serve-shared.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withStartLock } from '../../../src/core/gateway/shared/lock.js';
import { graceMs, shareKey, DEFAULT_GRACE_MS } from '../../../src/core/gateway/shared/key.js';
import { stderrLine, stderrOf, tokenMatches } from '../../../src/core/gateway/shared/hello.js';

test('sessions started at once hold the start lock one at a time, and each gets it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-lock-'));
  try {
    let inside = 0;
    let most = 0;
    const ran: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        withStartLock(dir, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setImmediate(r));
          ran.push(i);
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
    assert.deepEqual([...ran].sort(), [0, 1, 2, 3, 4]);
    assert.equal(existsSync(join(dir, 'start.lock')), false, 'released');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lock left by a dead process is taken over', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-lock-'));
  try {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(join(dir, 'start.lock'), String(dead));
    let held = '';
    await withStartLock(
      dir,
      async () => {
        held = await readFile(join(dir, 'start.lock'), 'utf8');
      },
      5000,
    );
    assert.equal(held, String(process.pid));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lock held by a live process is waited for, until the deadline', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-lock-'));
  try {
    await writeFile(join(dir, 'start.lock'), String(process.ppid));
    await assert.rejects(
      withStartLock(dir, async () => undefined, 200),
      /timed out/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sessions share only with the same folder, server options and config variables', () => {
  const base = { cwd: '/w', options: { exclude: [] }, env: { HOME: '/h', PATH: '/bin', MCP_HOST_HOME: '/m' } };
  const key = shareKey(base);
  assert.equal(
    shareKey({ ...base, env: { ...base.env, TERM: 'x', MCP_HOST_OWNER: 'o', MCP_HOST_SERVE_GRACE_MS: '1' } }),
    key,
  );
  assert.notEqual(shareKey({ ...base, cwd: '/other' }), key);
  assert.notEqual(shareKey({ ...base, options: { exclude: ['a'] } }), key);
  assert.notEqual(shareKey({ ...base, env: { ...base.env, MCP_HOST_BLOB_DIR: '/b' } }), key);
  assert.notEqual(shareKey({ ...base, env: { ...base.env, PATH: '/usr/bin' } }), key);
  assert.notEqual(shareKey({ ...base, env: { ...base.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' } }), key);
});

test('the grace period: from MCP_HOST_SERVE_GRACE_MS, 0 allowed, else the default', () => {
  assert.equal(graceMs({}), DEFAULT_GRACE_MS);
  assert.equal(graceMs({ MCP_HOST_SERVE_GRACE_MS: '0' }), 0);
  assert.equal(graceMs({ MCP_HOST_SERVE_GRACE_MS: '1500' }), 1500);
  assert.equal(graceMs({ MCP_HOST_SERVE_GRACE_MS: 'soon' }), DEFAULT_GRACE_MS);
});

test('stderr lines are told from JSON-RPC; tokens compare whole', () => {
  const line = Buffer.from(stderrLine('mcp-host serve: --exclude x: no such server\n'));
  assert.equal(stderrOf(line), 'mcp-host serve: --exclude x: no such server\n');
  assert.equal(stderrOf(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n')), undefined);
  assert.equal(stderrOf(Buffer.from('{"mcpHostStderr":\n')), undefined);
  assert.equal(tokenMatches('abc', 'abc'), true);
  assert.equal(tokenMatches('abd', 'abc'), false);
  assert.equal(tokenMatches('ab', 'abc'), false);
  assert.equal(tokenMatches(undefined, 'abc'), false);
});
