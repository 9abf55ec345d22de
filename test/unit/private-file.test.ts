import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, pidAlive, removeFileSync, writePrivateFile } from '../../src/core/private-file.js';

const posix = process.platform !== 'win32';

test('ensurePrivateDir creates the folder 0700 and tightens one that is open to others', async () => {
  const base = mkdtempSync(join(tmpdir(), 'mcp-host-private-'));
  const fresh = join(base, 'a', 'b');
  await ensurePrivateDir(fresh);
  const loose = join(base, 'loose');
  await ensurePrivateDir(loose);
  chmodSync(loose, 0o755);
  await ensurePrivateDir(loose);
  if (posix) {
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    assert.equal(statSync(loose).mode & 0o777, 0o700);
  }
});

test('writePrivateFile writes 0600, replaces the old content whole and leaves no temp file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-private-'));
  const first = await writePrivateFile(dir, '42.lock', 'one');
  assert.equal(first, join(dir, '42.lock'));
  await writePrivateFile(dir, '42.lock', 'two');
  assert.equal(readFileSync(first, 'utf8'), 'two');
  if (posix) assert.equal(statSync(first).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['42.lock']);
});

test(
  'writePrivateFile replaces a symlink planted at the target instead of writing through it',
  { skip: !posix },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-host-private-'));
    const outside = join(mkdtempSync(join(tmpdir(), 'mcp-host-outside-')), 'victim');
    writeFileSync(outside, 'untouched');
    symlinkSync(outside, join(dir, 'x.json'));
    await writePrivateFile(dir, 'x.json', 'secret');
    assert.equal(readFileSync(outside, 'utf8'), 'untouched');
    assert.equal(lstatSync(join(dir, 'x.json')).isSymbolicLink(), false);
    assert.equal(readFileSync(join(dir, 'x.json'), 'utf8'), 'secret');
  },
);

test('removeFileSync removes the file and is quiet when it is already gone; pidAlive knows this process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-private-'));
  const file = join(dir, 'f');
  writeFileSync(file, 'x');
  removeFileSync(file);
  assert.equal(existsSync(file), false);
  removeFileSync(file);
  assert.equal(pidAlive(process.pid), true);
  assert.equal(pidAlive(999_999_999), false);
});
