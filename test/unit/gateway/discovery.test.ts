import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  discoveryDir,
  readDiscovery,
  removeDiscoverySync,
  writeDiscovery,
} from '../../../src/core/gateway/discovery.js';

const home = (): string => mkdtempSync(join(tmpdir(), 'mcp-host-home-'));

test('the discovery file lives in $MCP_HOST_HOME/gateway/<pid>.json, folder 0700, file 0600', async () => {
  const dir = discoveryDir({ MCP_HOST_HOME: home() });
  const content = { url: 'http://127.0.0.1:1234/mcp', token: 't0k', pid: process.pid, workspaceFolders: ['/w'] };
  const file = await writeDiscovery(dir, content);
  assert.equal(file, join(dir, `${process.pid}.json`));
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), content);
  if (process.platform !== 'win32') {
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  }
  assert.deepEqual(await readDiscovery(dir), [content]);
  removeDiscoverySync(file);
  assert.equal(existsSync(file), false);
  assert.deepEqual(await readDiscovery(dir), []);
});

test('stale files (dead pid) are ignored by readers and removed by the next writer; junk is skipped', async () => {
  const dir = join(home(), 'gateway');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dead = 999_999_999;
  writeFileSync(
    join(dir, `${dead}.json`),
    JSON.stringify({ url: 'http://127.0.0.1:1/mcp', token: 'x', pid: dead, workspaceFolders: [] }),
  );
  writeFileSync(join(dir, '77.json'), 'not json');
  const alive = (pid: number): boolean => pid !== dead && pid !== 77;
  assert.deepEqual(await readDiscovery(dir, alive), []);
  await writeDiscovery(
    dir,
    { url: 'http://127.0.0.1:2/mcp', token: 'y', pid: process.pid, workspaceFolders: [] },
    alive,
  );
  assert.equal(existsSync(join(dir, `${dead}.json`)), false);
  assert.deepEqual(
    (await readDiscovery(dir, alive)).map((d) => d.pid),
    [process.pid],
  );
});
