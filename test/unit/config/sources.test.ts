/** Every config source, read from real files in temp dirs. */
import assert from 'node:assert/strict';
import { join, posix, win32 } from 'node:path';
import { test } from 'node:test';
import { configFilesToWatch, loadConfig } from '../../../src/core/config/load.js';
import { discoveryFile } from '../../../src/core/config/sources/discovery.js';
import type { InProcessServerConfig } from '../../../src/core/config/types.js';
import { byCode, json, names, server, tempTree } from './helpers.js';

test('.mcp.json (mcpServers) and .vscode/mcp.json (servers) are read with scope, file, JSON path and folder', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { proj: { command: 'node', args: ['p.js'] } } }),
    '.vscode/mcp.json': json({ servers: { ws: { type: 'http', url: 'https://ws.test/mcp' } } }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(c.problems, []);
  assert.deepEqual(server(c, 'proj').source, {
    scope: 'project',
    file: join(dir, '.mcp.json'),
    jsonPath: ['mcpServers', 'proj'],
    folder: dir,
  });
  assert.deepEqual(server(c, 'ws').source, {
    scope: 'workspace',
    file: join(dir, '.vscode', 'mcp.json'),
    jsonPath: ['servers', 'ws'],
    folder: dir,
  });
  // Config order: scopes low to high.
  assert.deepEqual(names(c), ['ws', 'proj']);
  assert.ok(c.files!.includes(join(dir, '.mcp.json')));
});

test("multi-root: each folder's files, tagged with their folder; ${workspaceFolder} is that folder", async (t) => {
  const root = await tempTree(t, {
    'a/.mcp.json': json({ mcpServers: { fromA: { command: 'node', args: ['${workspaceFolder}/s.js'] } } }),
    'b/.mcp.json': json({ mcpServers: { fromB: { command: 'node', args: ['${workspaceFolder}/s.js'] } } }),
    'b/.vscode/mcp.json': json({ servers: { wsB: { command: 'python3', cwd: 'sub' } } }),
  });
  const a = join(root, 'a');
  const b = join(root, 'b');
  const c = await loadConfig({ folders: [a, b], env: {} });
  assert.deepEqual(c.problems, []);
  const fromA = server(c, 'fromA');
  assert.equal(fromA.source.folder, a);
  assert.ok(fromA.config.type === 'stdio');
  assert.deepEqual(fromA.config.args, [`${a}/s.js`]);
  const fromB = server(c, 'fromB');
  assert.ok(fromB.config.type === 'stdio');
  assert.deepEqual(fromB.config.args, [`${b}/s.js`]);
  const wsB = server(c, 'wsB');
  assert.ok(wsB.config.type === 'stdio');
  assert.equal(wsB.config.cwd, join(b, 'sub'), 'relative cwd resolves against the folder');
});

test('user setting: { name: entry } handed in as a value, labelled settings:mcpHost.servers', async () => {
  const c = await loadConfig({
    folders: [],
    userServers: { mine: { command: 'uvx', args: ['mcp-server-time'] } },
    env: {},
  });
  assert.deepEqual(server(c, 'mine').source, { scope: 'user', file: 'settings:mcpHost.servers', jsonPath: ['mine'] });
  assert.equal(server(c, 'mine').signature, 'stdio:["uvx","mcp-server-time"]');
});

test('managed file: mcpServers (JSONC allowed)', async (t) => {
  const dir = await tempTree(t, {
    'managed.json': '{\n // corporate\n "mcpServers": { "corp": { "url": "https://corp.test/mcp" } }\n}',
  });
  const c = await loadConfig({ folders: [], managedPath: join(dir, 'managed.json'), env: {} });
  assert.deepEqual(server(c, 'corp').source, {
    scope: 'managed',
    file: join(dir, 'managed.json'),
    jsonPath: ['mcpServers', 'corp'],
  });
  assert.equal(server(c, 'corp').config.type, 'http');
});

test('discovery paths per platform', () => {
  const env = { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' };
  assert.equal(
    discoveryFile('claude-desktop', { homeDir: '/home/u', platform: 'linux', env }),
    posix.join('/home/u', '.config/Claude/claude_desktop_config.json'),
  );
  assert.equal(
    discoveryFile('claude-desktop', { homeDir: '/Users/u', platform: 'darwin', env }),
    '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
  );
  assert.equal(
    discoveryFile('claude-desktop', { homeDir: 'C:\\Users\\u', platform: 'win32', env }),
    win32.join(env.APPDATA, 'Claude', 'claude_desktop_config.json'),
  );
  assert.equal(discoveryFile('claude-code', { homeDir: '/home/u', platform: 'linux', env }), '/home/u/.claude.json');
  assert.equal(discoveryFile('cursor', { homeDir: '/home/u', platform: 'linux', env }), '/home/u/.cursor/mcp.json');
  assert.equal(
    discoveryFile('windsurf', { homeDir: '/home/u', platform: 'linux', env }),
    '/home/u/.codeium/windsurf/mcp_config.json',
  );
});

test("discovery: Claude Desktop, Claude Code (top level + this folder's project), Cursor, Windsurf (serverUrl)", async (t) => {
  const home = await tempTree(t);
  const folder = join(home, 'work', 'proj');
  const other = join(home, 'work', 'other');
  const { writeFiles } = await import('./helpers.js');
  await writeFiles(home, {
    '.config/Claude/claude_desktop_config.json': json({
      mcpServers: { desktop: { command: 'npx', args: ['-y', 'desktop-server'] } },
    }),
    '.claude.json': json({
      numStartups: 5,
      mcpServers: { ccUser: { type: 'sse', url: 'https://cc.test/sse' } },
      projects: {
        [folder]: { mcpServers: { ccProject: { command: 'node', args: ['cc.js'] } } },
        [other]: { mcpServers: { notMine: { command: 'node', args: ['other.js'] } } },
      },
    }),
    '.cursor/mcp.json': json({ mcpServers: { cursor: { url: 'https://cursor.test/mcp' } } }),
    '.codeium/windsurf/mcp_config.json': json({ mcpServers: { surf: { serverUrl: 'https://surf.test/mcp' } } }),
  });
  const c = await loadConfig({
    folders: [folder],
    env: {},
    discovery: { enabled: true, homeDir: home, platform: 'linux' },
  });
  assert.deepEqual(c.problems, []);
  assert.deepEqual(names(c).sort(), ['ccProject', 'ccUser', 'cursor', 'desktop', 'surf']);
  for (const s of c.servers) assert.equal(s.source.scope, 'discovered');
  assert.deepEqual(server(c, 'ccProject').source.jsonPath, ['projects', folder, 'mcpServers', 'ccProject']);
  assert.equal(server(c, 'ccProject').source.folder, folder);
  const surf = server(c, 'surf').config;
  assert.ok(surf.type === 'http');
  assert.equal(surf.url, 'https://surf.test/mcp');
  // Only the chosen sources; off by default.
  const some = await loadConfig({
    folders: [folder],
    env: {},
    discovery: { enabled: true, homeDir: home, platform: 'linux', sources: ['cursor'] },
  });
  assert.deepEqual(names(some), ['cursor']);
  const off = await loadConfig({
    folders: [folder],
    env: {},
    discovery: { enabled: false, homeDir: home, platform: 'linux' },
  });
  assert.deepEqual(names(off), []);
});

test('discovery: a broken file of another app is reported and the rest still load', async (t) => {
  const home = await tempTree(t, {
    '.cursor/mcp.json': '{ "mcpServers": { ',
    '.claude.json': json({ mcpServers: { cc: { command: 'node' } } }),
  });
  const c = await loadConfig({ folders: [], env: {}, discovery: { enabled: true, homeDir: home, platform: 'linux' } });
  assert.deepEqual(names(c), ['cc']);
  assert.equal(byCode(c, 'invalid-json')[0].file, join(home, '.cursor', 'mcp.json'));
});

test('dynamic scope: plain entries and in-process servers; a bad in-process entry is a problem', async () => {
  const inproc: InProcessServerConfig = { type: 'inprocess', id: 'self', start: () => Promise.resolve() };
  const c = await loadConfig({
    folders: [],
    env: {},
    dynamic: [
      { name: 'dyn', config: { command: 'node', args: ['d.js'] }, owner: 'ext.one' },
      { name: 'self', config: inproc },
      { name: 'broken', config: { type: 'inprocess', id: '' } },
    ],
  });
  assert.deepEqual(server(c, 'dyn').source, { scope: 'dynamic', file: 'dynamic:ext.one', jsonPath: ['dyn'] });
  const self = server(c, 'self');
  assert.equal(self.config, inproc, 'the in-process config keeps its start function');
  assert.equal(self.signature, 'inprocess:self');
  assert.match(self.hash, /^[0-9a-f]{64}$/);
  assert.match(c.problems.find((p) => p.server === 'broken')!.message, /needs an "id".*"start\(transport\)"/);
});

test('configFilesToWatch lists every file that could define servers, existing or not', () => {
  const files = configFilesToWatch({
    folders: ['/w/a', '/w/b'],
    managedPath: '/etc/mcp/managed.json',
    systemManagedPath: '/etc/mcp-host/managed.json',
    discovery: {
      enabled: true,
      homeDir: '/home/u',
      platform: 'linux',
      sources: ['cursor', 'claude-code', 'nonsense' as 'cursor'],
    },
  });
  assert.deepEqual(files, [
    '/etc/mcp-host/managed.json',
    '/etc/mcp/managed.json',
    '/home/u/.claude.json',
    '/home/u/.cursor/mcp.json',
    join('/w/a', '.vscode', 'mcp.json'),
    join('/w/a', '.github', 'mcp.json'),
    join('/w/a', '.mcp.json'),
    join('/w/b', '.vscode', 'mcp.json'),
    join('/w/b', '.github', 'mcp.json'),
    join('/w/b', '.mcp.json'),
  ]);
});

test('the loader never writes: files are byte-identical afterwards', async (t) => {
  const text = '{\n  // keep me\n  "servers": { "x": { "command": "node", "args": ["${input:missing}"] } }\n}\n';
  const dir = await tempTree(t, { '.vscode/mcp.json': text, '.mcp.json': '{"mcpServers":{"bad":{}}}' });
  const { readFile, stat } = await import('node:fs/promises');
  const before = await stat(join(dir, '.vscode', 'mcp.json'));
  await loadConfig({ folders: [dir], env: {} });
  assert.equal(await readFile(join(dir, '.vscode', 'mcp.json'), 'utf8'), text);
  assert.equal(await readFile(join(dir, '.mcp.json'), 'utf8'), '{"mcpServers":{"bad":{}}}');
  assert.equal((await stat(join(dir, '.vscode', 'mcp.json'))).mtimeMs, before.mtimeMs);
});

test("configFiles (the CLI's --config): extra .mcp.json-format files in the dynamic scope, later files win", async (t) => {
  const dir = await tempTree(t, {
    'one.json': json({
      mcpServers: { a: { command: 'node', args: ['1'] }, shared: { command: 'node', args: ['one'] } },
    }),
    'two.json': json({ mcpServers: { shared: { command: 'node', args: ['two'] } } }),
    'proj/.mcp.json': json({ mcpServers: { a: { command: 'node', args: ['project'] } } }),
  });
  const c = await loadConfig({
    folders: [join(dir, 'proj')],
    env: {},
    configFiles: [join(dir, 'one.json'), join(dir, 'two.json')],
  });
  assert.equal(server(c, 'a').source.file, join(dir, 'one.json'));
  assert.equal(server(c, 'a').source.scope, 'dynamic');
  assert.equal(server(c, 'shared').source.file, join(dir, 'two.json'));
  assert.deepEqual(
    byCode(c, 'shadowed')
      .map((p) => p.file)
      .sort(),
    [join(dir, 'one.json'), join(dir, 'proj', '.mcp.json')].sort(),
  );
});
