import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findExecutable, resolveCommand } from '../../../src/core/connection/resolve-command.js';
import { HostError } from '../../../src/core/errors.js';

const files = (list: string[]) => (p: string) => list.includes(p);

describe('resolveCommand', () => {
  test('POSIX: searches PATH in order', () => {
    const e = { platform: 'linux' as const, env: { PATH: '/a:/b:/c' }, isExecutable: files(['/b/npx', '/c/npx']) };
    assert.equal(findExecutable('npx', e), '/b/npx');
    assert.deepEqual(resolveCommand('npx', ['-y', 'pkg'], e), { file: '/b/npx', args: ['-y', 'pkg'] });
  });

  test('POSIX: relative paths resolve against cwd, absolute ones as they are', () => {
    const e = {
      platform: 'linux' as const,
      env: { PATH: '' },
      cwd: '/work',
      isExecutable: files(['/work/bin/server', '/opt/s']),
    };
    assert.equal(findExecutable('./bin/server', e), '/work/bin/server');
    assert.equal(findExecutable('/opt/s', e), '/opt/s');
  });

  test('not found: the error names the command and explains GUI PATH problems', () => {
    const e = { platform: 'linux' as const, env: { PATH: '/a' }, isExecutable: files([]) };
    assert.throws(
      () => findExecutable('uvx', e),
      (err: HostError) =>
        err instanceof HostError &&
        err.code === 'command-not-found' &&
        err.message ===
          "command not found: uvx — is it installed and on PATH? GUI-launched editors may not see your shell's PATH (nvm/fnm/volta/asdf)",
    );
  });

  test('Windows: PATHEXT finds npx.cmd, which runs through cmd.exe with escaped arguments', () => {
    const e = {
      platform: 'win32' as const,
      env: { Path: 'C:\\node;C:\\other', PATHEXT: '.COM;.EXE;.BAT;.CMD', ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
      isExecutable: files(['C:\\node\\npx.cmd']),
    };
    const r = resolveCommand('npx', ['-y', '@scope/server', 'a b', 'x&y'], e);
    assert.equal(r.file, 'C:\\Windows\\system32\\cmd.exe');
    assert.deepEqual(r.args.slice(0, 3), ['/d', '/s', '/c']);
    assert.equal(r.windowsVerbatimArguments, true);
    const line = r.args[3];
    assert.ok(line.startsWith('"C:\\node\\npx.cmd '), line);
    // Metacharacters are caret-escaped so cmd.exe does not interpret them.
    assert.ok(line.includes('^"x^&y^"'), line);
    assert.ok(line.includes('^"a^ b^"'), line);
  });

  test('Windows: an .exe runs directly', () => {
    const e = {
      platform: 'win32' as const,
      env: { PATH: 'C:\\py', PATHEXT: '.EXE;.CMD' },
      isExecutable: files(['C:\\py\\uv.exe']),
    };
    assert.deepEqual(resolveCommand('uv', ['run'], e), { file: 'C:\\py\\uv.exe', args: ['run'] });
  });

  test('Windows: an explicit .cmd path also goes through cmd.exe', () => {
    const e = { platform: 'win32' as const, env: { PATH: '' }, isExecutable: files(['C:\\tools\\srv.cmd']) };
    const r = resolveCommand('C:\\tools\\srv.cmd', [], e);
    assert.equal(r.file, 'cmd.exe');
    assert.equal(r.args[3], '"C:\\tools\\srv.cmd"');
  });
});

test('Windows: a .cmd shim that forwards its arguments (%*) gets them caret-escaped twice, as cross-spawn does', () => {
  const e = (text: string | undefined) => ({
    platform: 'win32' as const,
    env: { PATH: 'C:\\node', PATHEXT: '.CMD' },
    isExecutable: (p: string) => p === 'C:\\node\\npx.cmd',
    readBatch: () => text,
  });
  // An embedded quote ends cmd's quoting in the shim's second parse; the & after it must stay escaped.
  const arg = 'a"&calc&"b';
  const shim = resolveCommand('npx', [arg], e('@"%~dp0\\node.exe" "%~dp0\\npx-cli.js" %*\r\n')).args[3]!;
  const once = '^"a\\^"^&calc^&\\^"b^"';
  assert.ok(shim.includes(once.replace(/\^/g, '^^^')), shim);
  const plain = resolveCommand('npx', [arg], e('@echo hello\r\n')).args[3]!;
  assert.ok(plain.includes(once), plain);
  assert.ok(!plain.includes('^^^'), plain);
});
