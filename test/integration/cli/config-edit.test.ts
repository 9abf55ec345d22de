// `mcp-host search/add/add-json/remove/import` as a user runs them: a temp folder, the editor's
// user settings.json in a temp file, a local registry on port 0. Every edit must keep the
// file's comments and every other entry.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import type { FakeRegistry } from '../../fixtures/registry/fake-registry.js';
import { EVERYTHING, type Harness } from './harness.js';
import { PROJECT, SETTINGS, WORKSPACE, editEnv, editFolder, withEditFixtures } from './edit-folders.js';

let h: Harness;
let reg: FakeRegistry;

const folder = (name: string): Promise<{ ws: string; settings: string }> => editFolder(h, name);
const env = (settings: string): Record<string, string> => editEnv(reg.url, settings);

withEditFixtures((opened) => ({ h, reg } = opened));

describe('add / remove keep comments and other entries', () => {
  test('add -- COMMAND into .mcp.json, then remove it: the file is back to what it was', async () => {
    const { ws, settings } = await folder('add-remove');
    const add = await h.run(['add', 'ev', '--env', 'A=1', '--', process.execPath, EVERYTHING, 'stdio'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(add.code, 0, add.stderr);
    const text = await readFile(join(ws, '.mcp.json'), 'utf8');
    assert.ok(text.startsWith(PROJECT.slice(0, PROJECT.indexOf('"other"'))), text);
    assert.deepEqual(parse(text).extra, [1, 2]);
    assert.deepEqual(parse(text).mcpServers.ev, {
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { A: '1' },
    });
    assert.deepEqual(Object.keys(parse(text).mcpServers), ['keep', 'other', 'ev']);
    const tools = await h.run(['tools', 'ev', '--json'], { cwd: ws, env: env(settings) });
    assert.equal(tools.code, 0, tools.stderr);
    assert.ok((JSON.parse(tools.stdout) as { name: string }[]).some((t) => t.name === 'echo'));

    const again = await h.run(['add', 'ev', '--url', 'https://x.example/mcp'], { cwd: ws, env: env(settings) });
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already has a server "ev"/);

    const rm = await h.run(['remove', 'ev'], { cwd: ws, env: env(settings) });
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(await readFile(join(ws, '.mcp.json'), 'utf8'), PROJECT);
    const missing = await h.run(['remove', 'ev'], { cwd: ws, env: env(settings) });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no server "ev"/);
  });

  test('--scope workspace edits .vscode/mcp.json keeping its comments; remove restores it byte for byte', async () => {
    const { ws, settings } = await folder('workspace');
    const add = await h.run(['add', 'w2', '--scope', 'workspace', '--url', 'wss://ws.example/mcp'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(add.code, 0, add.stderr);
    const text = await readFile(join(ws, '.vscode', 'mcp.json'), 'utf8');
    assert.ok(
      text.includes('// team servers') && text.includes('// stays') && text.includes('/* block comment */'),
      text,
    );
    assert.deepEqual(parse(text).servers.w2, { type: 'ws', url: 'wss://ws.example/mcp' });
    const rm = await h.run(['remove', 'w2'], { cwd: ws, env: env(settings) });
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(await readFile(join(ws, '.vscode', 'mcp.json'), 'utf8'), WORKSPACE);
  });

  test('--scope user writes the editor settings.json (comments kept), and list sees it', async () => {
    const { ws, settings } = await folder('user');
    const add = await h.run(
      ['add', 'remote', '--url', 'http://127.0.0.1:9/sse', '--header', 'X-Team=core', '--scope', 'user'],
      { cwd: ws, env: env(settings) },
    );
    assert.equal(add.code, 0, add.stderr);
    const text = await readFile(settings, 'utf8');
    assert.ok(text.includes('// my editor settings') && text.includes('// personal'));
    const doc = parse(text);
    assert.equal(doc['editor.fontSize'], 14);
    assert.deepEqual(doc['mcpHost.servers'].remote, {
      type: 'sse',
      url: 'http://127.0.0.1:9/sse',
      headers: { 'X-Team': 'core' },
    });
    const list = await h.run(['list', '--json'], { cwd: ws, env: env(settings) });
    const names = (JSON.parse(list.stdout) as { name: string }[]).map((s) => s.name);
    assert.ok(
      names.includes('mine') && names.includes('remote') && names.includes('keep') && names.includes('wkeep'),
      names.join(','),
    );
    const rm = await h.run(['remove', 'remote', '--scope', 'user'], { cwd: ws, env: env(settings) });
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(await readFile(settings, 'utf8'), SETTINGS);
  });

  test('add-json validates before writing; a bad entry changes nothing', async () => {
    const { ws, settings } = await folder('json');
    const bad = await h.run(['add-json', 'x', '{"command": 42}'], { cwd: ws, env: env(settings) });
    assert.equal(bad.code, 2);
    const notJson = await h.run(['add-json', 'x', '{nope'], { cwd: ws, env: env(settings) });
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /not valid/);
    assert.equal(await readFile(join(ws, '.mcp.json'), 'utf8'), PROJECT);
    const ok = await h.run(['add-json', 'x', '{"type":"http","url":"https://x.example/mcp"}', '--scope', 'workspace'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(parse(await readFile(join(ws, '.vscode', 'mcp.json'), 'utf8')).servers.x, {
      type: 'http',
      url: 'https://x.example/mcp',
    });
  });

  test('add needs exactly one form; usage errors exit 2', async () => {
    const { ws, settings } = await folder('usage');
    for (const args of [
      ['add', 'x'],
      ['add', 'x', '--url', 'https://a.example', '--', 'node'],
      ['add', 'x', '--scope', 'team', '--', 'node'],
    ]) {
      const r = await h.run(args, { cwd: ws, env: env(settings) });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
  });
});

describe('import', () => {
  test('--from claude-desktop copies entries into user settings and reports name clashes', async () => {
    const { ws, settings } = await folder('import');
    const home = join(h.dir, 'import-home');
    await mkdir(join(home, '.config', 'Claude'), { recursive: true });
    await writeFile(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          mine: { command: 'other' },
          fs: { command: 'npx', args: ['-y', 'fs'], env: { TOKEN: 'literal-secret' } },
          bad: { command: 7 },
        },
      }),
    );
    const r = await h.run(['import', '--from', 'claude-desktop', '--json'], {
      cwd: ws,
      env: { ...env(settings), HOME: home },
    });
    assert.equal(r.code, 0, r.stderr);
    const results = (JSON.parse(r.stdout) as { results: { name: string; action: string }[] }).results;
    assert.deepEqual(
      results.map((x) => [x.name, x.action]),
      [
        ['mine', 'clash'],
        ['fs', 'import'],
        ['bad', 'invalid'],
      ],
    );
    const doc = parse(await readFile(settings, 'utf8'));
    assert.deepEqual(doc['mcpHost.servers'].mine, { command: 'node', args: ['mine.js'] });
    assert.deepEqual(doc['mcpHost.servers'].fs, {
      command: 'npx',
      args: ['-y', 'fs'],
      env: { TOKEN: 'literal-secret' },
    });
    assert.ok((await readFile(settings, 'utf8')).includes('// personal'));

    // Into the shared .mcp.json a literal secret is not copied.
    const shared = await h.run(['import', '--from', 'claude-desktop', '--scope', 'project'], {
      cwd: ws,
      env: { ...env(settings), HOME: home },
    });
    assert.equal(shared.code, 0, shared.stderr);
    assert.match(shared.stdout, /skipped {2}fs: it has literal values \(env TOKEN\)/);
    assert.match(shared.stdout, /imported mine/);
    assert.ok(!(await readFile(join(ws, '.mcp.json'), 'utf8')).includes('literal-secret'));
  });

  test("--from codex reads Codex's TOML and writes our JSON shape, headers as variables, comments kept", async () => {
    const { ws, settings } = await folder('import-codex');
    const home = join(h.dir, 'import-codex-home');
    await mkdir(join(home, '.codex'), { recursive: true });
    await writeFile(
      join(home, '.codex', 'config.toml'),
      [
        '[mcp_servers.notes]',
        'command = "node"',
        'args = ["notes.js"]',
        'tool_timeout_sec = 30',
        '[mcp_servers.api]',
        'url = "https://api.test/mcp"',
        'bearer_token_env_var = "API_TOKEN"',
      ].join('\n'),
    );
    const r = await h.run(['import', '--from', 'codex', '--json'], { cwd: ws, env: { ...env(settings), HOME: home } });
    assert.equal(r.code, 0, r.stderr);
    const results = (JSON.parse(r.stdout) as { results: { name: string; action: string }[] }).results;
    assert.deepEqual(
      results.map((x) => [x.name, x.action]),
      [
        ['notes', 'import'],
        ['api', 'import'],
      ],
    );
    const doc = parse(await readFile(settings, 'utf8'));
    assert.deepEqual(doc['mcpHost.servers'].notes, { command: 'node', args: ['notes.js'] });
    assert.deepEqual(doc['mcpHost.servers'].api, {
      url: 'https://api.test/mcp',
      type: 'http',
      headers: { Authorization: 'Bearer ${env:API_TOKEN}' },
    });
    assert.ok((await readFile(settings, 'utf8')).includes('// personal'));
  });
});
