/** Allow/deny policy from the managed file. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { evaluatePolicy, type Policy } from '../../../src/core/config/policy.js';
import type { StdioServerConfig } from '../../../src/core/config/types.js';
import { byCode, json, running, tempTree } from './helpers.js';

const stdio = (command: string, ...args: string[]): StdioServerConfig => ({ type: 'stdio', command, args });

test('deny by name, command prefix and URL wildcard: reported as policy-denied and held back', async (t) => {
  const dir = await tempTree(t, {
    'managed.json': json({
      deniedServers: [
        { serverName: 'evil' },
        { serverCommand: ['npx', '-y', 'bad-pkg'] },
        { serverUrl: 'https://*.blocked.test/*' },
      ],
    }),
    '.mcp.json': json({
      mcpServers: {
        evil: { command: 'node' },
        badCmd: { command: 'npx', args: ['-y', 'bad-pkg', '--more'] },
        badUrl: { url: 'https://api.blocked.test/mcp' },
        fine: { command: 'npx', args: ['-y', 'good-pkg'] },
        fineUrl: { url: 'https://blocked.test.example/mcp' },
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, managedPath: join(dir, 'managed.json') });
  assert.deepEqual(running(c), ['fine', 'fineUrl']);
  const denied = byCode(c, 'policy-denied');
  assert.deepEqual(
    denied.map((p) => p.server),
    ['evil', 'badCmd', 'badUrl'],
  );
  const evil = denied[0];
  assert.equal(evil.file, join(dir, '.mcp.json'));
  assert.deepEqual(evil.jsonPath, ['mcpServers', 'evil']);
  assert.equal(evil.severity, 'error');
  assert.match(
    evil.message,
    /Server "evil" is blocked by the policy in .*managed\.json: it matches the deny rule serverName "evil" \(at deniedServers\[0\]\). Ask your administrator/,
  );
  assert.match(denied[1].message, /deny rule serverCommand \["npx","-y","bad-pkg"\]/);
  assert.match(denied[2].message, /deny rule serverUrl "https:\/\/\*\.blocked\.test\/\*"/);
});

test('allow-list: anything not on it is denied; deny beats allow; commands on an allow-list match exactly', async (t) => {
  const dir = await tempTree(t, {
    'managed.json': json({
      allowedServers: [
        { serverName: 'named' },
        { serverName: 'both' },
        { serverCommand: ['uvx', 'mcp-server-time'] },
        { serverUrl: 'https://*.corp.test/*' },
      ],
      deniedServers: [{ serverName: 'both' }],
      mcpServers: { corp: { url: 'https://mcp.corp.test/x' } },
    }),
  });
  const c = await loadConfig({
    folders: [],
    env: {},
    managedPath: join(dir, 'managed.json'),
    userServers: {
      named: { command: 'anything' },
      both: { command: 'node' },
      time: { command: 'uvx', args: ['mcp-server-time'] },
      timePlus: { command: 'uvx', args: ['mcp-server-time', '--evil'] },
      other: { url: 'https://elsewhere.test/mcp' },
    },
  });
  assert.deepEqual(running(c), ['corp', 'named', 'time']);
  const denied = byCode(c, 'policy-denied');
  assert.match(denied.find((p) => p.server === 'both')!.message, /deny rule serverName "both"/);
  assert.match(denied.find((p) => p.server === 'timePlus')!.message, /not on the allow-list/);
  assert.match(denied.find((p) => p.server === 'other')!.message, /not on the allow-list/);
});

test('an empty allow-list denies everything', () => {
  const p: Policy = { file: '/m.json', allowed: [], denied: [] };
  assert.equal(evaluatePolicy(p, 'x', stdio('node')).allowed, false);
  assert.equal(evaluatePolicy(undefined, 'x', stdio('node')).allowed, true);
});

test('malformed policy rules are reported and ignored; a broken managed file denies everything (fail closed)', async (t) => {
  const dir = await tempTree(t, {
    'rules.json': json({
      deniedServers: [
        { serverName: 1 },
        { serverCommand: [] },
        { serverName: 'a', serverUrl: 'b' },
        { serverName: 'x' },
      ],
    }),
    'broken.json': '{ "deniedServers": [ ',
  });
  const c = await loadConfig({
    folders: [],
    env: {},
    managedPath: join(dir, 'rules.json'),
    userServers: { x: { command: 'node' }, y: { command: 'node' } },
  });
  assert.deepEqual(running(c), ['y']);
  const bad = byCode(c, 'policy');
  assert.deepEqual(
    bad.map((p) => p.jsonPath),
    [
      ['deniedServers', 0],
      ['deniedServers', 1],
      ['deniedServers', 2],
    ],
  );
  assert.match(bad[0].message, /must have exactly one of "serverName"/);

  const broken = await loadConfig({
    folders: [],
    env: {},
    managedPath: join(dir, 'broken.json'),
    userServers: { y: { command: 'node' } },
  });
  assert.deepEqual(running(broken), []);
  assert.equal(byCode(broken, 'invalid-json')[0].file, join(dir, 'broken.json'));
  assert.match(byCode(broken, 'policy-denied')[0].message, /cannot be read, so no server may start until it is fixed/);
});

test('policy is checked after variables are expanded', async (t) => {
  const dir = await tempTree(t, { 'm.json': json({ deniedServers: [{ serverUrl: 'https://bad.test/*' }] }) });
  const c = await loadConfig({
    folders: [],
    env: { HOST: 'bad.test' },
    managedPath: join(dir, 'm.json'),
    userServers: { s: { url: 'https://${HOST}/mcp' } },
  });
  assert.deepEqual(running(c), []);
  assert.equal(byCode(c, 'policy-denied').length, 1);
});

test('a missing managed file is no policy and no problem', async () => {
  const c = await loadConfig({
    folders: [],
    env: {},
    managedPath: '/nonexistent/managed.json',
    userServers: { s: { command: 'node' } },
  });
  assert.deepEqual(running(c), ['s']);
  assert.deepEqual(c.problems, []);
});
