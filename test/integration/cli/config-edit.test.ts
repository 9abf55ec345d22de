// `mcp-host search/add/add-json/remove/import` as a user runs them: a temp folder, the editor's
// user settings.json in a temp file, a local registry on port 0. Every edit must keep the
// file's comments and every other entry.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fake-registry.js';
import { EVERYTHING, ROOT, createHarness, type Harness } from './harness.js';

let h: Harness;
let reg: FakeRegistry;

// Claude Code reads .mcp.json as plain JSON (no comments): its own formatting must survive.
const PROJECT = `{
    "mcpServers": {
        "keep": { "command": "node", "args": ["keep.js"] },
        "other": {"url": "https://other.example/mcp"}
    },
    "extra": [1, 2]
}
`;

const WORKSPACE = `{
  // team servers (VS Code format, comments allowed)
  "servers": {
    "wkeep": { "command": "node", "args": ["wkeep.js"] }, // stays
    /* block comment */
    "wother": { "type": "http", "url": "https://wother.example/mcp" }
  }
}
`;

const SETTINGS = `{
  // my editor settings
  "editor.fontSize": 14,
  "mcpHost.servers": {
    "mine": { "command": "node", "args": ["mine.js"] } // personal
  }
}
`;

async function folder(name: string): Promise<{ ws: string; settings: string }> {
  const ws = join(h.dir, name);
  await mkdir(ws, { recursive: true });
  await writeFile(join(ws, '.mcp.json'), PROJECT);
  await mkdir(join(ws, '.vscode'));
  await writeFile(join(ws, '.vscode', 'mcp.json'), WORKSPACE);
  const settings = join(h.dir, `${name}-settings.json`);
  await writeFile(settings, SETTINGS);
  return { ws, settings };
}

function env(settings: string): Record<string, string> {
  return { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_REGISTRY_URL: reg.url };
}

before(async () => {
  h = await createHarness();
  reg = await startFakeRegistry();
});

after(async () => {
  await reg?.close();
  await h?.dispose();
});

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
});

describe('registry', () => {
  test('search prints name, description and how it runs; --json for scripts; malformed entries are skipped', async () => {
    const { ws, settings } = await folder('search');
    const r = await h.run(['search', 'weather'], { cwd: ws, env: env(settings) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /io\.github\.example\/weather@0\.5\.0/);
    assert.match(r.stdout, /runs: uvx weather-mcp-server==0\.5\.0/);
    const all = await h.run(['search', '--json'], { cwd: ws, env: env(settings) });
    const body = JSON.parse(all.stdout) as { servers: unknown[]; skipped: string[] };
    assert.equal(body.servers.length, 7);
    assert.equal(body.skipped.length, 3);
  });

  test('search pages: the first page names its nextCursor, --cursor takes it, --all joins every page', async () => {
    const { ws, settings } = await folder('search-pages');
    // Three to a page: the 7 valid and 3 malformed entries span four pages.
    const paged = await startFakeRegistry({ pageSize: 3 });
    try {
      const e = { ...env(settings), MCP_HOST_REGISTRY_URL: paged.url };
      type Body = { servers: { name: string }[]; nextCursor: string | null; skipped: string[] };
      const first = await h.run(['search', '--json'], { cwd: ws, env: e });
      assert.equal(first.code, 0, first.stderr);
      const one = JSON.parse(first.stdout) as Body;
      assert.equal(one.nextCursor, '3');
      const second = await h.run(['search', '--json', '--cursor', one.nextCursor], { cwd: ws, env: e });
      const two = JSON.parse(second.stdout) as Body;
      assert.equal(two.nextCursor, '6');
      assert.equal(
        new Set([...one.servers, ...two.servers].map((x) => x.name)).size,
        one.servers.length + two.servers.length,
      );
      paged.requests.length = 0;
      const all = await h.run(['search', '--json', '--all'], { cwd: ws, env: e });
      assert.equal(all.code, 0, all.stderr);
      const every = JSON.parse(all.stdout) as Body;
      assert.equal(every.servers.length, 7);
      assert.equal(every.skipped.length, 3);
      assert.equal(every.nextCursor, null);
      assert.equal(paged.requests.length, 4, paged.requests.join(' '));
      const text = await h.run(['search'], { cwd: ws, env: e });
      assert.match(text.stdout, /--cursor "3" for the next page, --all for all/);
      const both = await h.run(['search', '--all', '--cursor', '3'], { cwd: ws, env: e });
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--all or --cursor, not both/);
    } finally {
      await paged.close();
    }
  });

  test('a registry that is down: exit 3 and a message naming it', async () => {
    const { ws, settings } = await folder('down');
    const r = await h.run(['search', 'x'], {
      cwd: ws,
      env: { ...env(settings), MCP_HOST_REGISTRY_URL: 'http://127.0.0.1:9' },
    });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /Cannot reach the registry at http:\/\/127\.0\.0\.1:9/);
  });

  test('add --from-registry (npm, secret variable) into .vscode/mcp.json: a password input, no secret in the file, and it connects', async () => {
    const { ws, settings } = await folder('install');
    const add = await h.run(
      [
        'add',
        'ev',
        '--from-registry',
        'io.github.modelcontextprotocol/everything',
        '--scope',
        'workspace',
        '--env',
        'EVERYTHING_TOKEN=tok-123456',
        '--env',
        'LOG_LEVEL=debug',
      ],
      { cwd: ws, env: env(settings) },
    );
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stderr, /is secret: its value is not written/);
    const text = await readFile(join(ws, '.vscode', 'mcp.json'), 'utf8');
    assert.ok(!text.includes('tok-123456'));
    assert.ok(text.includes('// stays'), text);
    const doc = parse(text);
    assert.deepEqual(doc.servers.ev.env, { EVERYTHING_TOKEN: '${input:EVERYTHING_TOKEN}', LOG_LEVEL: 'debug' });
    assert.equal(doc.servers.ev.command, 'npx');
    assert.deepEqual(doc.inputs, [
      {
        type: 'promptString',
        id: 'EVERYTHING_TOKEN',
        description: 'A token the server does not need (tests secret handling)',
        password: true,
      },
    ]);
    // Run from the repository so npx finds the installed package: nothing is downloaded.
    const tools = await h.run(['tools', 'ev', '--json', '--workspace', ws], {
      cwd: ROOT,
      env: { ...env(settings), MCP_HOST_INPUT_EVERYTHING_TOKEN: 'tok-123456', npm_config_offline: 'true' },
      timeoutMs: 120_000,
    });
    assert.equal(tools.code, 0, tools.stderr);
    assert.ok((JSON.parse(tools.stdout) as { name: string }[]).some((t) => t.name === 'echo'));
  });

  test('add --from-registry: a missing required value or an unknown server is a usage error; nothing is written', async () => {
    const { ws, settings } = await folder('install-bad');
    const missing = await h.run(['add', 'db', '--from-registry', 'io.github.example/database'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Missing required value: DB_HOST/);
    const unknown = await h.run(['add', 'x', '--from-registry', 'io.github.example/nope'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no server named/);
    assert.equal(await readFile(join(ws, '.mcp.json'), 'utf8'), PROJECT);
    const remote = await h.run(['add', 'api', '--from-registry', 'com.example/remote-api', '--env', 'tenant=acme'], {
      cwd: ws,
      env: env(settings),
    });
    assert.equal(remote.code, 0, remote.stderr);
    assert.deepEqual(parse(await readFile(join(ws, '.mcp.json'), 'utf8')).mcpServers.api, {
      type: 'http',
      url: 'https://mcp.example.com/acme/mcp',
      headers: { Authorization: 'Bearer ${API_KEY}', 'X-Region': 'eu-west-1' },
      registry: { id: 'com.example/remote-api', version: '2.0.0' },
    });
  });
});

describe('managed policy the CLI cannot widen', () => {
  async function managed(name: string, doc: unknown): Promise<string> {
    const file = join(h.dir, `${name}-managed.json`);
    await writeFile(file, JSON.stringify(doc));
    return file;
  }

  test('registryOnly: an entry added --from-registry runs (checked against the managed file’s registry); a hand-written one is held, and doctor names the rule', async () => {
    const { ws, settings } = await folder('registry-only');
    // The user's registry setting points nowhere useful: the managed file's registry is the one asked.
    const policy = await managed('registry-only', { registryOnly: true, registry: { url: reg.url } });
    const e = { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_MANAGED_CONFIG: policy, MCP_HOST_REGISTRY_URL: reg.url };
    const add = await h.run(['add', 'api', '--from-registry', 'com.example/remote-api', '--env', 'tenant=acme'], {
      cwd: ws,
      env: e,
    });
    assert.equal(add.code, 0, add.stderr);
    // Tampered: same registry id, another URL.
    const forged = await h.run(
      [
        'add-json',
        'forged',
        JSON.stringify({ url: 'https://evil.example/mcp', registry: { id: 'com.example/remote-api' } }),
      ],
      { cwd: ws, env: e },
    );
    assert.equal(forged.code, 0, forged.stderr);
    const doctor = await h.run(['doctor', '--json'], {
      cwd: ws,
      env: { ...e, MCP_HOST_REGISTRY_URL: 'http://127.0.0.1:9' },
    });
    const report = JSON.parse(doctor.stdout) as {
      servers: { name: string; state: string; error?: string; policyRule?: { file: string; jsonPath: string[] } }[];
    };
    const byName = new Map(report.servers.map((s) => [s.name, s]));
    // Admitted: it then tries to connect to its (unreachable) URL, which is not a policy matter.
    assert.notEqual(byName.get('api')?.state, 'disabled', JSON.stringify(byName.get('api')));
    assert.equal(byName.get('api')?.policyRule, undefined);
    for (const name of ['keep', 'wkeep', 'mine', 'forged']) {
      const s = byName.get(name);
      assert.equal(s?.state, 'disabled', name);
      assert.deepEqual(s?.policyRule, { file: policy, jsonPath: ['registryOnly'] }, name);
    }
    assert.match(byName.get('forged')!.error!, /not one of the packages or remotes the registry lists/);
    assert.match(byName.get('keep')!.error!, /not installed from the registry/);
    assert.ok(reg.requests.some((r) => r.includes('/v0.1/servers/com.example%2Fremote-api/versions/latest')));
  });

  test('managedServersOnly: --config files and every other scope are held, whatever the command line says', async () => {
    const { ws, settings } = await folder('managed-only');
    const policy = await managed('managed-only', {
      managedServersOnly: true,
      mcpServers: { corp: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    const extra = join(ws, 'extra.json');
    await writeFile(
      extra,
      JSON.stringify({ mcpServers: { cli: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }),
    );
    const r = await h.run(['doctor', '--config', extra], {
      cwd: ws,
      env: { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_MANAGED_CONFIG: policy },
      timeoutMs: 60_000,
    });
    assert.match(r.stdout, /✓ corp /);
    assert.match(r.stdout, /- cli \(stdio, dynamic: .*extra\.json/);
    assert.match(
      r.stdout,
      new RegExp(
        `managed policy holds it back: ${policy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at managedServersOnly`,
      ),
    );
    assert.doesNotMatch(r.stdout, /✓ (cli|keep|mine|wkeep) /);
  });

  test('add, add-json and import under managedServersOnly are refused (exit 2, naming the rule) and write nothing; add --url under registryOnly too', async () => {
    const { ws, settings } = await folder('managed-only-add');
    const before = await readFile(join(ws, '.mcp.json'), 'utf8');
    const policy = await managed('managed-only-add', { managedServersOnly: true });
    const e = { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_MANAGED_CONFIG: policy };
    for (const args of [
      ['add', 'extra', '--url', 'https://example.test/mcp'],
      ['add-json', 'extra', JSON.stringify({ url: 'https://example.test/mcp' })],
      ['import', '--from', 'claude-code', '--scope', 'project'],
    ]) {
      const r = await h.run(args, { cwd: ws, env: e });
      assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /"managedServersOnly"/);
      assert.ok(r.stderr.includes(policy), r.stderr);
    }
    assert.equal(await readFile(join(ws, '.mcp.json'), 'utf8'), before);
    const regOnly = await managed('registry-only-add', { registryOnly: true });
    const r = await h.run(['add', 'extra', '--url', 'https://example.test/mcp'], {
      cwd: ws,
      env: { ...e, MCP_HOST_MANAGED_CONFIG: regOnly },
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /"registryOnly".*nothing was added/);
    assert.equal(await readFile(join(ws, '.mcp.json'), 'utf8'), before);
  });
});
