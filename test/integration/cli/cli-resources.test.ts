// `mcp-host` resources, prompts, config sources, doctor, Ctrl+C and the list cache, run as a new user
// would (the folder of cli.test.ts). Split from cli.test.ts so the files run side by side.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, waitGone, type Harness } from './harness.js';
import { everything, withMainWorkspace } from './main-workspace.js';
import { pollUntil } from '../../support/wait.js';

const PKG_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let h: Harness;
let ws: string;

withMainWorkspace((opened) => ({ h, ws } = opened));

describe('resources and prompts', () => {
  test('resources, read (text and blob to a file), prompts and prompt', async () => {
    const list = await h.run(['resources', 'everything', '--json'], { cwd: ws });
    assert.equal(list.code, 0, list.stderr);
    const items = JSON.parse(list.stdout) as { uri?: string; uriTemplate?: string; mimeType?: string }[];
    const text = items.find((i) => i.uri && i.mimeType?.startsWith('text/'))!;
    assert.ok(text, list.stdout);
    const read = await h.run(['read', 'everything', text.uri!], { cwd: ws });
    assert.equal(read.code, 0, read.stderr);
    assert.ok(read.stdout.length > 0);

    const blob = await h.run(['read', 'everything', 'demo://resource/dynamic/blob/1', '--json'], { cwd: ws });
    assert.equal(blob.code, 0, blob.stderr);
    const contents = (JSON.parse(blob.stdout) as { contents: { blobPath?: string; size?: number }[] }).contents;
    assert.ok(contents[0]!.blobPath!.startsWith(join(h.dir, 'blobs')), blob.stdout);
    assert.ok(existsSync(contents[0]!.blobPath!));

    const prompts = await h.run(['prompts', 'everything'], { cwd: ws });
    assert.equal(prompts.code, 0, prompts.stderr);
    assert.match(prompts.stdout, /^everything\s+args-prompt\s+city state\?/m);
    const missingArg = await h.run(['prompt', 'everything', 'args-prompt'], { cwd: ws });
    assert.equal(missingArg.code, 2);
    assert.match(missingArg.stderr, /needs argument\(s\) city/);
    const p = await h.run(['prompt', 'everything', 'args-prompt', '--args', '{"city":"Lisbon"}'], { cwd: ws });
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /\[user\]\n.*Lisbon/);
  });
});

describe('config sources and options', () => {
  test('--config adds servers from another file; --workspace may come anywhere on the line', async () => {
    const extra = join(h.dir, 'extra.mcp.json');
    await writeFile(extra, JSON.stringify({ mcpServers: { second: everything() } }));
    const r = await h.run(['tools', 'second', '--config', extra, '--json', '--workspace', ws], { cwd: h.dir });
    assert.equal(r.code, 0, r.stderr);
    const tools = JSON.parse(r.stdout) as { server: string }[];
    assert.ok(tools.length > 0);
    assert.ok(tools.every((t) => t.server === 'second'));
  });

  test('the managed policy binds the CLI: a denied server is never spawned and the command says why', async () => {
    const managed = join(h.dir, 'managed.json');
    const marker = join(h.dir, 'denied-ran');
    await writeFile(managed, JSON.stringify({ deniedServers: [{ serverName: 'denied' }] }));
    const dir = await h.workspace('policy', {
      denied: {
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      },
    });
    const r = await h.run(['tools', 'denied'], { cwd: dir, env: { MCP_HOST_MANAGED_CONFIG: managed } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /blocked by the policy in .*managed\.json: it matches the deny rule serverName "denied"/);
    assert.ok(!existsSync(marker), 'the denied command never ran');
  });
});

describe('doctor', () => {
  test('shows the broken entry with its file and JSON path, what to do, and the good server connected', async () => {
    const dir = await h.workspace('doctor', {
      good: everything(),
      bad: { command: 'x', url: 'http://127.0.0.1:1/mcp' },
    });
    const r = await h.run(['doctor'], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const file = join(dir, '.mcp.json');
    assert.ok(r.stdout.includes(file), r.stdout);
    assert.match(r.stdout, /✗ .*\.mcp\.json:\d+:\d+: error: .*\(at mcpServers\.bad\)/);
    assert.match(r.stdout, /→ /);
    assert.match(r.stdout, /✓ good \(stdio, project/);
    assert.match(r.stdout, /connected in \d+ ms: \d+ tools, \d+ resources, \d+ prompts/);
    assert.match(r.stdout, /1 server\(s\): 1 connected, 0 failed, 1 config error/);
  });

  test('a 2026-07-28 server without cache hints is connected, and doctor says which rule it broke', async () => {
    const server = join(ROOT, 'test', 'fixtures', 'servers', 'no-cache-hints.mjs');
    const dir = await h.workspace('doctor-hints', { hints: { command: process.execPath, args: [server] } });
    const r = await h.run(['doctor'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /connected in \d+ ms: 2 tools, 2 resources, 1 prompts/);
    assert.match(
      r.stdout,
      /protocol: MCP 2026-07-28\n +! server broke the protocol: tools\/list result without ttlMs\/cacheScope/,
    );
  });

  test('a server that fails to connect makes doctor exit 3, with the command check and a hint', async () => {
    const dir = await h.workspace('doctor-missing', { missing: { command: 'no-such-command-for-mcp-host-tests' } });
    const r = await h.run(['doctor', '--json'], { cwd: dir });
    assert.equal(r.code, 3, r.stderr);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      version: string;
      servers: { name: string; state: string; command: { found: boolean; hint: string } }[];
    };
    assert.equal(report.ok, false);
    assert.equal(report.version, PKG_VERSION, 'doctor --json names the version');
    const text = await h.run(['doctor'], { cwd: dir });
    assert.equal(text.stdout.split('\n')[0], `mcp-host ${PKG_VERSION}`, 'the report starts with the version');
    const s = report.servers[0]!;
    assert.equal(s.state, 'failed');
    assert.equal(s.command.found, false);
    assert.match(s.command.hint, /absolute path/);
  });
});

describe('interruption', () => {
  test('Ctrl+C during a call stops the server process and exits 130', async () => {
    const pidFile = join(h.dir, 'hang.pid');
    const calledFile = join(h.dir, 'hang.called');
    const dir = await h.workspace('interrupt', {
      errors: {
        command: process.execPath,
        args: [h.fixture('errors-server')],
        env: { PID_FILE: pidFile, CALLED_FILE: calledFile },
      },
    });
    const { child, exit } = h.start(['call', 'errors', 'hang'], { cwd: dir });
    // The server writes the second file when the call reaches it: the interrupt comes during the call.
    await pollUntil(() => existsSync(calledFile), 60_000);
    assert.ok(existsSync(pidFile), 'the server started');
    assert.ok(existsSync(calledFile), 'the call reached the server');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    child.kill('SIGINT');
    const { code } = await exit;
    assert.equal(code, 130);
    assert.equal(await waitGone(pid), true, `server process ${pid} outlived the CLI`);
  });
});

describe('list cache', () => {
  test("a run keeps each server's lists for the folder; --clear-list-cache drops them", async () => {
    const cws = await h.workspace('list-cache', { everything: everything() });
    const { createHash } = await import('node:crypto');
    const folder = createHash('sha256').update(cws).digest('hex').slice(0, 32);
    const file = join(h.dir, '.config', 'mcp-host', 'list-cache', folder, 'state.json');
    const kept = (): Record<string, unknown> =>
      existsSync(file)
        ? ((JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>)['mcpHost.listCache'] ??
          {})
        : {};
    assert.equal((await h.run(['tools', 'everything'], { cwd: cws })).code, 0);
    assert.deepEqual(
      Object.keys(kept()).map((k) => k.split('#')[0]),
      ['everything'],
    );
    // With no server left to rewrite it, only the option empties it.
    await writeFile(join(cws, '.mcp.json'), JSON.stringify({ mcpServers: {} }));
    assert.equal((await h.run(['list'], { cwd: cws })).code, 0);
    assert.equal(Object.keys(kept()).length, 1, 'a plain run keeps it');
    assert.equal((await h.run(['list', '--clear-list-cache'], { cwd: cws })).code, 0);
    assert.equal(Object.keys(kept()).length, 0);
  });
});
