/**
 * The CLI's `secrets.json` (issue 12, item 11): a file that cannot be read is never overwritten
 * (it may hold every other server's tokens), writes go through an exclusively created random temp
 * file (a planted symlink is not followed), and a file others can read is warned about and fixed.
 */
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { FileSecretStore } from '../../../src/cli/auth-store.js';

function configDir(t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), 'mcp-sec-secrets-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'mcp-host');
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

test('a secrets.json that does not parse is not erased by the next write', async (t) => {
  const dir = configDir(t);
  const file = join(dir, 'secrets.json');
  const damaged =
    '{\n  "mcp-host.oauth/github/abc": "{\\"tokens\\":{\\"access_token\\":\\"gho_keep\\"}}",\n  "mcp-host.oauth/linear/def": "{\\"tok';
  writeFileSync(file, damaged, { mode: 0o600 });
  const warnings: string[] = [];
  const store = new FileSecretStore(dir, (m) => warnings.push(m));
  assert.equal(await store.get('mcp-host.oauth/github/abc'), undefined);
  assert.match(warnings.join('\n'), /cannot be read: it is not valid JSON/);
  await assert.rejects(store.store('mcp-host.oauth/new/ghi', 'v'), /not overwritten/);
  await assert.rejects(store.delete('mcp-host.oauth/github/abc'), /not overwritten/);
  assert.equal(readFileSync(file, 'utf8'), damaged, 'the damaged file is left exactly as it was');
});

test('a secrets.json that cannot be read at all (a folder here) is not replaced', async (t) => {
  const dir = configDir(t);
  mkdirSync(join(dir, 'secrets.json'));
  writeFileSync(join(dir, 'secrets.json', 'keep'), 'x');
  const store = new FileSecretStore(dir);
  await assert.rejects(store.store('k', 'v'), /cannot be read \(it is not a regular file\)/);
  assert.ok(statSync(join(dir, 'secrets.json')).isDirectory());
});

test('a symlink planted at the old predictable temp name is not followed', async (t) => {
  const dir = configDir(t);
  const outside = join(dir, '..', 'attacker-readable.txt');
  writeFileSync(outside, 'before', { mode: 0o644 });
  // The name the store used to write through: secrets.json.<pid>.tmp.
  symlinkSync(outside, join(dir, `secrets.json.${process.pid}.tmp`));
  const store = new FileSecretStore(dir);
  await store.store('mcp-host.oauth/s/1', 'the-token-value');
  assert.equal(readFileSync(outside, 'utf8'), 'before', 'nothing was written through the symlink');
  const stored = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
  assert.equal(stored['mcp-host.oauth/s/1'], 'the-token-value');
  assert.equal(statSync(join(dir, 'secrets.json')).mode & 0o777, 0o600);
  const leftovers = readdirSync(dir).filter((n) => n.endsWith('.tmp') && n !== `secrets.json.${process.pid}.tmp`);
  assert.deepEqual(leftovers, [], 'no temp file is left behind');
});

test(
  'a secrets.json readable by others is warned about and set to 0600',
  { skip: process.platform === 'win32' },
  async (t) => {
    const dir = configDir(t);
    const file = join(dir, 'secrets.json');
    writeFileSync(file, JSON.stringify({ k: 'v' }), { mode: 0o644 });
    const warnings: string[] = [];
    const store = new FileSecretStore(dir, (m) => warnings.push(m));
    assert.equal(await store.get('k'), 'v');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /readable by other users \(mode 644\); changed to 600/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  },
);
