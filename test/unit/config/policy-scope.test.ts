/** "managedServersOnly", and managed files as layers that a user-chosen file cannot widen. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { configFilesToWatch, loadConfig } from '../../../src/core/config/load.js';
import { managedPolicyFiles, systemPolicyPath } from '../../../src/core/config/policy-scope.js';
import { json, running, server, tempTree } from './helpers.js';

const everywhere = {
  '.mcp.json': json({ mcpServers: { proj: { command: 'node', args: ['p.js'] } } }),
  '.vscode/mcp.json': json({ servers: { ws: { type: 'http', url: 'https://ws.test/mcp' } } }),
  'extra.json': json({ mcpServers: { cli: { command: 'node', args: ['cli.js'] } } }),
};

test('managedServersOnly: only the managed file’s servers run; every other scope is held with the rule’s file and path', async (t) => {
  const dir = await tempTree(t, {
    ...everywhere,
    'system.json': json({ managedServersOnly: true, mcpServers: { corp: { command: 'node', args: ['corp.js'] } } }),
  });
  const c = await loadConfig({
    folders: [dir],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    userServers: { mine: { command: 'node', args: ['mine.js'] } },
    configFiles: [join(dir, 'extra.json')],
    dynamic: [{ name: 'api', config: { command: 'node', args: ['api.js'] }, owner: 'x' }],
  });
  assert.deepEqual(running(c), ['corp']);
  for (const name of ['mine', 'proj', 'ws', 'cli', 'api']) {
    const a = server(c, name).admission;
    assert.ok(a && !a.run, name);
    assert.equal(a.reason, 'policy');
    assert.deepEqual(a.rule, { file: join(dir, 'system.json'), jsonPath: ['managedServersOnly'] });
    assert.match(a.message, /only those may run .*at managedServersOnly\)\. Ask your administrator/);
  }
});

test('a file named by the setting cannot widen the system policy: its servers are not "managed", its switches only add', async (t) => {
  const dir = await tempTree(t, {
    'system.json': json({ managedServersOnly: true, deniedServers: [{ serverName: 'corp2' }] }),
    'mine.json': json({
      managedServersOnly: false,
      allowedServers: [{ serverName: 'sneaky' }, { serverName: 'corp2' }],
      mcpServers: { sneaky: { command: 'node', args: ['s.js'] }, corp2: { command: 'node', args: ['c.js'] } },
    }),
  });
  const c = await loadConfig({
    folders: [],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    managedPath: join(dir, 'mine.json'),
  });
  assert.deepEqual(running(c), []);
  const sneaky = server(c, 'sneaky').admission;
  assert.ok(sneaky && !sneaky.run);
  assert.deepEqual(sneaky.rule?.jsonPath, ['managedServersOnly']);
  const corp2 = server(c, 'corp2').admission;
  assert.ok(corp2 && !corp2.run);
  assert.deepEqual(corp2.rule, { file: join(dir, 'system.json'), jsonPath: ['deniedServers', 0] });
  assert.match(corp2.message, /deny rule serverName "corp2" \(at deniedServers\[0\]\)/);
});

test('a switch in the setting’s own file admits that file’s servers, and a system deny still binds them', async (t) => {
  const dir = await tempTree(t, {
    ...everywhere,
    'system.json': json({ deniedServers: [{ serverCommand: ['node', 'bad.js'] }] }),
    'mine.json': json({
      managedServersOnly: true,
      mcpServers: { ok: { command: 'node', args: ['ok.js'] }, bad: { command: 'node', args: ['bad.js'] } },
    }),
  });
  const c = await loadConfig({
    folders: [dir],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    managedPath: join(dir, 'mine.json'),
  });
  assert.deepEqual(running(c), ['ok']);
  const bad = server(c, 'bad').admission;
  assert.ok(bad && !bad.run);
  assert.equal(bad.rule?.file, join(dir, 'system.json'));
});

test('a switch that is not a boolean fails closed and is reported at its JSON path', async (t) => {
  const dir = await tempTree(t, {
    ...everywhere,
    'system.json': json({ managedServersOnly: 'yes' }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, systemManagedPath: join(dir, 'system.json') });
  assert.deepEqual(running(c), []);
  const p = c.problems.find((x) => x.code === 'policy');
  assert.ok(p);
  assert.deepEqual(p.jsonPath, ['managedServersOnly']);
});

test('the system policy path per OS, always first, and watched', () => {
  assert.equal(systemPolicyPath('linux', {}), '/etc/mcp-host/managed.json');
  assert.equal(systemPolicyPath('darwin', {}), '/Library/Application Support/MCPHost/managed.json');
  assert.equal(systemPolicyPath('win32', { ProgramData: 'D:\\PD' }), 'D:\\PD\\MCPHost\\managed.json');
  assert.equal(systemPolicyPath('win32', {}), 'C:\\ProgramData\\MCPHost\\managed.json');
  assert.deepEqual(managedPolicyFiles({ managedPath: '/x/m.json', platform: 'linux', env: {} }), [
    '/etc/mcp-host/managed.json',
    '/x/m.json',
  ]);
  // The setting pointing at the system file, or empty, does not remove it.
  assert.deepEqual(managedPolicyFiles({ managedPath: '/etc/mcp-host/managed.json', platform: 'linux', env: {} }), [
    '/etc/mcp-host/managed.json',
  ]);
  assert.deepEqual(managedPolicyFiles({ managedPath: '', platform: 'linux', env: {} }), ['/etc/mcp-host/managed.json']);
  assert.ok(
    configFilesToWatch({ folders: [], discovery: { enabled: false, platform: 'linux' } }).includes(
      '/etc/mcp-host/managed.json',
    ),
  );
});
