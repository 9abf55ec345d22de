import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { addInputDeclarations } from '../../../src/core/config/edit-inputs.js';
import { literalSecrets, planImport } from '../../../src/core/config/import.js';
import { userSettingsFile } from '../../../src/core/config/user-settings.js';

describe('import planning', () => {
  it('clashes keep the existing entry; invalid entries and literal secrets in shared files are skipped with a reason', () => {
    const d = planImport(
      [
        { name: 'a', entry: { command: 'x' } },
        { name: 'b', entry: { command: 'y', env: { TOKEN: 'abc', FROM_ENV: '${TOKEN}' } } },
        { name: 'c', entry: {}, invalid: 'no command' },
      ],
      new Set(['a']),
      true,
    );
    assert.deepEqual(
      d.map((x) => x.action),
      ['clash', 'secret', 'invalid'],
    );
    assert.match(d[1]!.reason!, /env TOKEN/);
    assert.deepEqual(
      planImport([{ name: 'b', entry: { command: 'y', env: { TOKEN: 'abc' } } }], new Set(), false)[0]!.action,
      'import',
    );
    assert.deepEqual(literalSecrets({ headers: { Authorization: 'Bearer x', X: '${env:X}' } }), [
      'header Authorization',
    ]);
  });
});

describe('input declarations in .vscode/mcp.json', () => {
  it('adds password inputs once, keeping comments; creates "inputs" when missing', () => {
    const text = '{\n  // mine\n  "servers": {}\n}\n';
    const once = addInputDeclarations(text, [{ id: 'TOKEN', description: 'API token', password: true }]);
    const twice = addInputDeclarations(once, [
      { id: 'TOKEN', description: 'other', password: true },
      { id: 'B', description: 'b', password: false },
    ]);
    assert.ok(twice.includes('// mine'));
    assert.deepEqual(parse(twice).inputs, [
      { type: 'promptString', id: 'TOKEN', description: 'API token', password: true },
      { type: 'promptString', id: 'B', description: 'b' },
    ]);
  });
});

describe('user settings location', () => {
  it('VS Code default per platform; option beats env beats default', () => {
    assert.equal(userSettingsFile({ env: {}, homeDir: '/h', platform: 'linux' }), '/h/.config/Code/User/settings.json');
    assert.equal(
      userSettingsFile({ env: { XDG_CONFIG_HOME: '/x' }, homeDir: '/h', platform: 'linux' }),
      '/x/Code/User/settings.json',
    );
    assert.equal(
      userSettingsFile({ env: {}, homeDir: '/h', platform: 'darwin' }),
      '/h/Library/Application Support/Code/User/settings.json',
    );
    assert.equal(
      userSettingsFile({ env: { APPDATA: 'C:\\A' }, homeDir: 'C:\\h', platform: 'win32' }),
      'C:\\A\\Code\\User\\settings.json',
    );
    assert.equal(
      userSettingsFile({ env: { MCP_HOST_USER_SETTINGS: '/e.json' }, homeDir: '/h', platform: 'linux' }),
      '/e.json',
    );
    assert.equal(
      userSettingsFile({
        override: '/o.json',
        env: { MCP_HOST_USER_SETTINGS: '/e.json' },
        homeDir: '/h',
        platform: 'linux',
      }),
      '/o.json',
    );
  });
});

describe('secrets in arguments and URLs (issue 29, item 3)', () => {
  const leaky = {
    command: 'npx',
    args: [
      '-y',
      'srv',
      '--api-key',
      'sk-ant-abcdefghijklmnop1234',
      'Authorization: Bearer abc.def.ghi',
      '--port',
      '3000',
    ],
  };
  it('an entry with --api-key sk-…, an Authorization argument, ?api_key= or user:pass@ is not copied into a shared file', () => {
    assert.deepEqual(literalSecrets(leaky), ['argument 4', 'argument 5']);
    assert.deepEqual(literalSecrets({ url: 'https://x.example/mcp?api_key=abc123' }), ['URL']);
    assert.deepEqual(literalSecrets({ url: 'https://bob:hunter2@x.example/mcp' }), ['URL']);
    assert.deepEqual(literalSecrets({ command: 'x', args: ['--port', '3000', '-y', 'https://x.example/?q=1'] }), []);
    const d = planImport([{ name: 'leaky', entry: leaky }], new Set(), true);
    assert.equal(d[0]!.action, 'secret');
    assert.match(d[0]!.reason!, /argument 4, argument 5/);
    assert.equal(planImport([{ name: 'leaky', entry: leaky }], new Set(), false)[0]!.action, 'import');
  });
});
