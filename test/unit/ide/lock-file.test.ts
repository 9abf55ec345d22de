import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  cleanStaleLockFiles,
  defaultLockDir,
  removeLockFile,
  writeLockFile,
  type LockFileContent,
} from '../../../src/core/ide/lock-file.js';

const root = mkdtempSync(join(tmpdir(), 'ide-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));

const content = (over: Partial<LockFileContent> = {}): LockFileContent => ({
  pid: process.pid,
  workspaceFolders: ['/w'],
  ideName: 'MCP Host',
  transport: 'ws',
  runningInWindows: false,
  authToken: 'tok',
  ...over,
});

test('defaultLockDir honours CLAUDE_CONFIG_DIR, else ~/.claude/ide', () => {
  assert.equal(defaultLockDir({ CLAUDE_CONFIG_DIR: '/cfg' }), join('/cfg', 'ide'));
  assert.equal(defaultLockDir({}), join(homedir(), '.claude', 'ide'));
  assert.equal(defaultLockDir({ CLAUDE_CONFIG_DIR: '' }), join(homedir(), '.claude', 'ide'));
});

test(
  'writes atomically with private modes, leaves no temp file, removes it',
  { skip: process.platform === 'win32' },
  async () => {
    const dir = join(root, 'a', 'ide');
    const file = await writeLockFile(dir, 1234, content());
    assert.equal(file, join(dir, '1234.lock'));
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), content());
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await writeLockFile(dir, 1234, content({ workspaceFolders: ['/w', '/v'] }));
    assert.deepEqual(readdirSync(dir), ['1234.lock']);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).workspaceFolders, ['/w', '/v']);
    await removeLockFile(dir, 1234);
    assert.equal(existsSync(file), false);
    await removeLockFile(dir, 1234); // idempotent
  },
);

test('an existing world-readable folder is tightened to 0700', { skip: process.platform === 'win32' }, async () => {
  const dir = join(root, 'open');
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  await writeLockFile(dir, 1, content());
  assert.equal(statSync(dir).mode & 0o777, 0o700);
});

test('stale cleaning removes only our files whose pid is dead', async () => {
  const dir = join(root, 'stale');
  mkdirSync(dir, { recursive: true });
  const dead = 999_999_991;
  writeFileSync(join(dir, '1.lock'), JSON.stringify(content({ pid: dead })));
  writeFileSync(join(dir, '2.lock'), JSON.stringify(content({ pid: 4242 })));
  writeFileSync(join(dir, '3.lock'), JSON.stringify(content({ pid: dead, ideName: 'Other IDE' })));
  writeFileSync(join(dir, '4.lock'), 'not json');
  writeFileSync(join(dir, 'notes.txt'), JSON.stringify(content({ pid: dead })));
  writeFileSync(join(dir, '5.lock'), JSON.stringify(content({ pid: process.pid })));
  const removed = await cleanStaleLockFiles(dir, 'MCP Host', (pid) => pid === 4242);
  assert.deepEqual(removed, [join(dir, '1.lock')]);
  assert.deepEqual(readdirSync(dir).sort(), ['2.lock', '3.lock', '4.lock', '5.lock', 'notes.txt']);
  assert.deepEqual(await cleanStaleLockFiles(join(root, 'nope'), 'MCP Host'), []);
});

test('stale cleaning with the real liveness check keeps a live pid and drops a dead one', async () => {
  const dir = join(root, 'real');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '1.lock'), JSON.stringify(content({ pid: 999_999_991 })));
  writeFileSync(join(dir, '2.lock'), JSON.stringify(content({ pid: process.ppid })));
  assert.deepEqual(await cleanStaleLockFiles(dir, 'MCP Host'), [join(dir, '1.lock')]);
});
