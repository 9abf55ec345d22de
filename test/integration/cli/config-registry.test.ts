// `mcp-host search` and `add --from-registry` against a local registry on port 0, and the managed
// policy the CLI cannot widen. Split from config-edit.test.ts (same folders) so the files run side by side.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { EVERYTHING_VERSION, startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fake-registry.js';
import { EVERYTHING, ROOT, type Harness } from './harness.js';
import { PROJECT, editEnv, editFolder, withEditFixtures } from './edit-folders.js';

let h: Harness;
let reg: FakeRegistry;

const folder = (name: string): Promise<{ ws: string; settings: string }> => editFolder(h, name);
const env = (settings: string): Record<string, string> => editEnv(reg.url, settings);

withEditFixtures((opened) => ({ h, reg } = opened));

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
      // The secret the install wrote as ${API_KEY}: without it "api" is a problem, never checked.
      env: { ...e, MCP_HOST_REGISTRY_URL: 'http://127.0.0.1:9', API_KEY: 'k' },
    });
    const report = JSON.parse(doctor.stdout) as {
      servers: { name: string; state: string; error?: string; policyRule?: { file: string; jsonPath: string[] } }[];
    };
    const byName = new Map(report.servers.map((s) => [s.name, s]));
    // Admitted: it then tries to connect to its (unreachable) URL, which is not a policy matter.
    assert.ok(byName.has('api'), doctor.stdout);
    assert.notEqual(byName.get('api')?.state, 'disabled', JSON.stringify(byName.get('api')));
    assert.equal(byName.get('api')?.policyRule, undefined);
    for (const name of ['keep', 'wkeep', 'mine', 'forged']) {
      const s = byName.get(name);
      assert.equal(s?.state, 'disabled', name);
      assert.deepEqual(s?.policyRule, { file: policy, jsonPath: ['registryOnly'] }, name);
    }
    assert.match(byName.get('forged')!.error!, /not one of the packages or remotes the registry lists/);
    assert.match(byName.get('keep')!.error!, /not installed from the registry/);
    // The version the entry was installed at is the one asked for.
    assert.ok(
      reg.requests.some((r) => r.includes('/v0.1/servers/com.example%2Fremote-api/versions/2.0.0')),
      reg.requests.join('\n'),
    );
  });

  test('registryOnly admits only the launch the registry derives: /bin/sh -c naming the package, the vetted URL with a headersHelper, an extra argument and an unknown version are held, and nothing of theirs runs', async () => {
    const { ws, settings } = await folder('registry-strict');
    const policy = await managed('registry-strict', { registryOnly: true, registry: { url: reg.url } });
    const e = { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_MANAGED_CONFIG: policy, MCP_HOST_REGISTRY_URL: reg.url };
    const ran = join(ws, 'ran-sh');
    const helped = join(ws, 'ran-helper');
    const pkg = `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`;
    const everything = { id: 'io.github.modelcontextprotocol/everything', version: EVERYTHING_VERSION };
    const remote = { id: 'com.example/remote-api', version: '2.0.0' };
    const entries: Record<string, unknown> = {
      sh: { command: '/bin/sh', args: ['-c', `touch '${ran}'`, pkg], registry: everything },
      helper: {
        type: 'http',
        url: 'https://mcp.example.com/acme/mcp',
        headers: { Authorization: 'Bearer k', 'X-Region': 'eu-west-1' },
        headersHelper: `touch '${helped}'; echo {}`,
        registry: remote,
      },
      extra: { command: 'npx', args: ['-y', pkg, '--inspect'], env: { EVERYTHING_TOKEN: 't' }, registry: everything },
      old: {
        command: 'npx',
        args: ['-y', pkg],
        env: { EVERYTHING_TOKEN: 't' },
        registry: { ...everything, version: '0.0.1' },
      },
    };
    for (const [name, entry] of Object.entries(entries)) {
      const r = await h.run(['add-json', name, JSON.stringify(entry)], { cwd: ws, env: e });
      assert.equal(r.code, 0, r.stderr);
    }
    for (const args of [
      ['add', 'api', '--from-registry', remote.id, '--env', 'tenant=acme'],
      ['add', 'ev', '--from-registry', everything.id, '--env', 'EVERYTHING_TOKEN=t'],
    ]) {
      const r = await h.run(args, { cwd: ws, env: e });
      assert.equal(r.code, 0, r.stderr);
    }
    // Run from the repository so the admitted npx finds the installed package: nothing is downloaded.
    const doctor = await h.run(['doctor', '--json', '--workspace', ws], {
      cwd: ROOT,
      env: { ...e, npm_config_offline: 'true', API_KEY: 'k', EVERYTHING_TOKEN: 't' },
      timeoutMs: 120_000,
    });
    const report = JSON.parse(doctor.stdout) as {
      servers: { name: string; state: string; error?: string; policyRule?: unknown }[];
    };
    const byName = new Map(report.servers.map((s) => [s.name, s]));
    for (const name of ['api', 'ev']) {
      assert.ok(byName.has(name), `${name}: ${doctor.stdout}`);
      assert.notEqual(byName.get(name)?.state, 'disabled', JSON.stringify(byName.get(name)));
      assert.equal(byName.get(name)?.policyRule, undefined, name);
    }
    for (const name of ['sh', 'helper', 'extra', 'old']) {
      assert.equal(byName.get(name)?.state, 'disabled', name);
      assert.deepEqual(byName.get(name)?.policyRule, { file: policy, jsonPath: ['registryOnly'] }, name);
    }
    assert.match(byName.get('sh')!.error!, /its command is "\/bin\/sh", the registry's launch runs "npx"/);
    assert.match(byName.get('helper')!.error!, /"headersHelper" runs a shell command/);
    assert.match(byName.get('extra')!.error!, /argument the registry's launch does not: "--inspect"/);
    assert.match(byName.get('old')!.error!, /could not confirm .*no server named .* at version 0\.0\.1/);
    assert.equal(existsSync(ran), false, 'the /bin/sh command ran');
    assert.equal(existsSync(helped), false, 'the headersHelper ran');
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
