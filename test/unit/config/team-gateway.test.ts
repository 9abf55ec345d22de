/** `teamGateway` in the managed file or the `mcpHost.teamGateway` setting: one remote server, governed by the policy. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { teamGatewayServerName } from '../../../src/core/config/sources/team-gateway.js';
import type { RemoteServerConfig } from '../../../src/core/config/types.js';
import { json, names, running, server, tempTree } from './helpers.js';

const GATEWAY = 'https://mcp.example.com/mcp';

test('a managed teamGateway is one http server named after it, asking for every tool, with its oauth', async (t) => {
  const dir = await tempTree(t, {
    'system.json': json({
      teamGateway: { url: GATEWAY, name: 'Acme Tools', oauth: { clientId: 'mcp-host', scopes: ['mcp'] } },
    }),
  });
  const c = await loadConfig({ folders: [], env: {}, systemManagedPath: join(dir, 'system.json') });
  assert.deepEqual(names(c), ['acme-tools']);
  const def = server(c, 'acme-tools');
  assert.deepEqual(def.teamGateway, { displayName: 'Acme Tools' });
  assert.deepEqual(def.source, { scope: 'managed', file: join(dir, 'system.json'), jsonPath: ['teamGateway'] });
  const config = def.config as RemoteServerConfig;
  assert.equal(config.type, 'http');
  assert.equal(config.url, GATEWAY);
  assert.deepEqual(config.headers, { 'X-MCP-Host-Tools': 'all' });
  assert.deepEqual(config.oauth, { clientId: 'mcp-host', scopes: ['mcp'] });
  assert.deepEqual(c.problems, []);
});

test('the user setting names one for a team without managed policy; a managed one replaces it', async (t) => {
  const dir = await tempTree(t, { 'system.json': json({ teamGateway: { url: GATEWAY } }) });
  const mine = { url: 'http://127.0.0.1:8443/mcp', name: 'Mine' };
  const alone = await loadConfig({ folders: [], env: {}, systemManagedPath: '', userTeamGateway: mine });
  assert.deepEqual(names(alone), ['mine']);
  assert.equal(server(alone, 'mine').source.scope, 'user');
  assert.equal(server(alone, 'mine').source.file, 'settings:mcpHost.teamGateway');

  const both = await loadConfig({
    folders: [],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    userTeamGateway: mine,
  });
  assert.deepEqual(names(both), ['team-gateway'], 'the managed one, under the default name');
  assert.deepEqual(server(both, 'team-gateway').teamGateway, { displayName: 'Team gateway' });
  assert.match(both.problems.map((p) => p.message).join('\n'), /mcpHost\.teamGateway is ignored/);
});

test('a broken managed teamGateway is reported and does not hand the choice to the setting', async (t) => {
  const dir = await tempTree(t, {
    'system.json': json({ teamGateway: { url: 'http://mcp.example.com/mcp' } }),
    'other.json': json({ teamGateway: { name: 'no url' } }),
  });
  const c = await loadConfig({
    folders: [],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    managedPath: join(dir, 'other.json'),
    userTeamGateway: { url: GATEWAY },
  });
  assert.deepEqual(names(c), []);
  const messages = c.problems.map((p) => `${p.file} ${p.jsonPath.join('.')}: ${p.message}`).join('\n');
  assert.match(messages, /system\.json teamGateway\.url: "teamGateway"\.url must be an https:\/\/ URL/);
  const unset = await loadConfig({ folders: [], env: {}, systemManagedPath: '', userTeamGateway: { name: 'x' } });
  assert.match(unset.problems[0]?.message ?? '', /mcpHost\.teamGateway needs "url"/);
});

test('the policy governs the local servers beside it: managedServersOnly leaves only the gateway and the managed servers', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { proj: { command: 'node', args: ['p.js'] } } }),
    'system.json': json({ managedServersOnly: true, teamGateway: { url: GATEWAY, name: 'Acme' } }),
  });
  const c = await loadConfig({
    folders: [dir],
    env: {},
    systemManagedPath: join(dir, 'system.json'),
    userServers: { mine: { command: 'node', args: ['mine.js'] } },
  });
  assert.deepEqual(running(c), ['acme']);
  assert.equal(server(c, 'mine').admission?.run, false);
  assert.equal(server(c, 'proj').admission?.run, false);
});

test('an allow-list binds the gateway too, by its name or URL, as any server', async (t) => {
  const dir = await tempTree(t, {
    'listed.json': json({
      allowedServers: [{ serverUrl: 'https://mcp.example.com/*' }],
      teamGateway: { url: GATEWAY, name: 'Acme' },
    }),
    'unlisted.json': json({ allowedServers: [], teamGateway: { url: GATEWAY, name: 'Acme' } }),
  });
  const listed = await loadConfig({ folders: [], env: {}, systemManagedPath: join(dir, 'listed.json') });
  assert.deepEqual(running(listed), ['acme']);
  const unlisted = await loadConfig({ folders: [], env: {}, systemManagedPath: join(dir, 'unlisted.json') });
  assert.deepEqual(running(unlisted), []);
  const a = server(unlisted, 'acme').admission;
  assert.ok(a && !a.run);
  assert.match(a.message, /allow-list/);
});

test('server names made from display names', () => {
  assert.equal(teamGatewayServerName('Acme Tools'), 'acme-tools');
  assert.equal(teamGatewayServerName('  Ça va? Über-Gateway!! '), 'ca-va-uber-gateway');
  assert.equal(teamGatewayServerName('日本'), 'team-gateway');
  assert.equal(teamGatewayServerName('x'.repeat(60)).length, 40);
});
