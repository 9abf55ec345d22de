// The `mcp-host` CLI run as a new user would: a folder with a `.mcp.json`, real servers over stdio
// (server-everything and fixture servers), each command a fresh process of the bundled CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVERYTHING, ROOT, createHarness, waitGone, type Harness } from './harness.js';

let h: Harness;
let ws: string;

function everything(): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

before(async () => {
  h = await createHarness();
  ws = await h.workspace('main', {
    everything: everything(),
    errors: { command: process.execPath, args: [h.fixture('errors-server')] },
    broken: { command: 42 },
  });
});

after(async () => {
  await h?.dispose();
});

describe('basics', () => {
  test('--version and --help exit 0', async () => {
    const v = await h.run(['--version'], { cwd: ws });
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
    const help = await h.run(['list', '--help'], { cwd: ws });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /call SERVER TOOL/);
    assert.match(help.stdout, /exit codes/);
  });

  test('usage errors exit 2 and say what is wrong', async () => {
    const cases: [string[], RegExp][] = [
      [[], /no command given/],
      [['frobnicate'], /unknown command "frobnicate"; commands: list, tools/],
      [['call', 'everything'], /call: missing TOOL/],
      [['list', '--nope'], /unknown option --nope/],
      [['call', 'everything', 'echo', '--timeout', 'soon'], /--timeout must be a positive number/],
      [['list', '--args', '{}'], /list does not take --args/],
      [['list', '--config', 'nowhere.json'], /--config nowhere\.json: no such file/],
      [['list', '--workspace', '/definitely/not/here'], /no such folder/],
    ];
    for (const [args, message] of cases) {
      const r = await h.run(args, { cwd: ws });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
    }
  });
});

describe('list', () => {
  test('text: every server with its state and counts; a bad entry goes to stderr with file and JSON path', async () => {
    const r = await h.run(['list'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+TRANSPORT\s+SCOPE\s+TOOLS/m);
    assert.match(r.stdout, /^everything\s+stdio\s+project\s+\d+\s+\d+\s+\d+\s+connected/m);
    assert.match(r.stdout, /^errors\s+stdio\s+project\s+4\s+0\s+0\s+connected/m);
    assert.ok(!r.stdout.includes('broken'));
    assert.ok(r.stderr.includes(`${join(ws, '.mcp.json')}:`), r.stderr);
    assert.match(r.stderr, /error: .*"command" of server "broken".*\(at mcpServers\.broken\.command\)/);
  });

  test('--json: an array of {name, scope, source, transport, state, tools, resources, prompts}', async () => {
    const r = await h.run(['--json', 'list'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((x) => x.name),
      ['everything', 'errors', 'broken'],
    );
    const e = rows[0]!;
    assert.deepEqual(Object.keys(e).sort(), [
      'name',
      'prompts',
      'protocolVersion',
      'resources',
      'scope',
      'source',
      'state',
      'tools',
      'transport',
    ]);
    assert.equal(e.scope, 'project');
    assert.deepEqual(e.source, { file: join(ws, '.mcp.json'), jsonPath: ['mcpServers', 'everything'] });
    assert.equal(e.transport, 'stdio');
    assert.equal(e.state, 'connected');
    assert.equal(e.protocolVersion, '2025-11-25');
    assert.ok((e.tools as number) >= 10);
    assert.ok((e.resources as number) > 0);
    assert.ok((e.prompts as number) > 0);
    // An entry that did not load is a row too, with the reason, so scripts see every entry.
    const broken = rows[2]!;
    assert.equal(broken.state, 'invalid');
    assert.equal(broken.transport, null);
    assert.deepEqual(broken.source, { file: join(ws, '.mcp.json'), jsonPath: ['mcpServers', 'broken', 'command'] });
    assert.match(String(broken.error), /"command" of server "broken"/);
  });

  test('--json: an entry with an unresolved ${VAR} is a row with the variable named in its error', async () => {
    const dir = await h.workspace('with-unresolved', {
      everything: everything(),
      needsVar: { command: process.execPath, args: ['x'], env: { KEY: '${MCP_HOST_TEST_SURELY_UNSET}' } },
    });
    const r = await h.run(['list', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as { name: string; state: string; error?: string }[];
    assert.deepEqual(
      rows.map((x) => x.name),
      ['everything', 'needsVar'],
    );
    assert.equal(rows[1]!.state, 'invalid');
    assert.match(rows[1]!.error!, /MCP_HOST_TEST_SURELY_UNSET/);
  });

  test('a server that cannot start is listed as failed with its error, and the others still work', async () => {
    const dir = await h.workspace('with-missing', {
      everything: everything(),
      missing: { command: 'no-such-command-for-mcp-host-tests' },
    });
    const r = await h.run(['list', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as { name: string; state: string; error?: string }[];
    assert.equal(rows.find((x) => x.name === 'everything')!.state, 'connected');
    const missing = rows.find((x) => x.name === 'missing')!;
    assert.equal(missing.state, 'failed');
    assert.match(missing.error!, /command not found: no-such-command-for-mcp-host-tests/);
  });
});

describe('tools', () => {
  test('--json: {server, name, qualifiedName, description, annotations, inputSchema} for one server', async () => {
    const r = await h.run(['tools', 'everything', '--json'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const tools = JSON.parse(r.stdout) as Record<string, unknown>[];
    const echo = tools.find((t) => t.name === 'echo')!;
    assert.deepEqual(Object.keys(echo).sort(), [
      'annotations',
      'description',
      'inputSchema',
      'name',
      'qualifiedName',
      'server',
    ]);
    assert.equal(echo.server, 'everything');
    assert.equal(echo.qualifiedName, 'mcp__everything__echo');
    assert.equal((echo.inputSchema as { type: string }).type, 'object');
    assert.ok(tools.every((t) => t.server === 'everything'));
  });

  test('text: all servers', async () => {
    const r = await h.run(['tools'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^everything\s+echo\s/m);
    assert.match(r.stdout, /^errors\s+fail\s/m);
  });

  test('misleading Unicode never reaches the output; names are valid and unique', async () => {
    const dir = await h.workspace('unicode', {
      unicode: { command: process.execPath, args: [h.fixture('unicode-tools')] },
    });
    const r = await h.run(['tools', 'unicode', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const tools = JSON.parse(r.stdout) as { qualifiedName: string; description: string; inputSchema: unknown }[];
    assert.equal(tools.length, 7);
    assert.equal(new Set(tools.map((t) => t.qualifiedName)).size, 7);
    for (const t of tools) {
      assert.match(t.qualifiedName, /^[A-Za-z0-9_-]{1,64}$/);
      assert.ok(t.description.length <= 2100, `${t.qualifiedName}: ${t.description.length}`);
      assert.doesNotMatch(
        t.description + JSON.stringify(t.inputSchema),
        /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u,
      );
    }
    assert.ok(!r.stdout.includes('id_rsa'), 'the smuggled instruction is gone');
    // Wire names keep their characters in the data, but the printed JSON shows them escaped.
    assert.doesNotMatch(r.stdout, /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u);
    assert.ok((tools as unknown as { name: string }[]).some((t) => t.name === 'read\u202Eelif\u202C'));
    const text = await h.run(['tools', 'unicode'], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.doesNotMatch(text.stdout, /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u);
    assert.match(text.stdout, /^unicode\s+read\\u\{202E\}elif\\u\{202C\}\s/m);
  });
  test('tools meant for an MCP App only are not listed (visibility: ["app"])', async () => {
    const dir = await h.workspace('apps', {
      counter: { command: process.execPath, args: [join(ROOT, 'test', 'fixtures', 'servers', 'app-server.mjs')] },
    });
    const r = await h.run(['tools', 'counter', '--json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const names = (JSON.parse(r.stdout) as { name: string }[]).map((t) => t.name).sort();
    assert.deepEqual(names, ['counter_stats', 'legacy_counter', 'show_counter']);
  });
});

describe('call', () => {
  test('prints the text of the result and exits 0', async () => {
    const r = await h.run(['call', 'everything', 'echo', '--args', '{"message":"hello from the CLI"}'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Echo: hello from the CLI\n');
  });

  test('--json prints the whole result', async () => {
    const r = await h.run(['call', '--json', 'everything', 'get-sum', '--args={"a":2,"b":40}'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as {
      content: { type: string; text: string }[];
      isError: boolean;
      durationMs: number;
    };
    assert.equal(result.isError, false);
    assert.match(result.content[0]!.text, /42/);
    assert.equal(typeof result.durationMs, 'number');
  });

  test('a tool that returns isError exits 1 and still prints its output', async () => {
    const r = await h.run(['call', 'errors', 'fail'], { cwd: ws });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, 'the tool failed on purpose\n');
  });

  test('structured content that breaks the output schema is an error, not a result', async () => {
    const r = await h.run(['call', 'errors', 'bad-structured'], { cwd: ws });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /output schema/);
    assert.equal(r.stdout, '');
  });

  test('unknown server and unknown tool are usage errors listing the known names', async () => {
    const s = await h.run(['call', 'nosuch', 'echo'], { cwd: ws });
    assert.equal(s.code, 2);
    assert.match(s.stderr, /unknown server "nosuch"; known servers: everything, errors/);
    const t = await h.run(['call', 'everything', 'nosuch'], { cwd: ws });
    assert.equal(t.code, 2);
    assert.match(t.stderr, /has no tool "nosuch"; its tools: .*echo/);
  });

  test('a broken entry named on the line is a usage error that shows the config problem', async () => {
    const r = await h.run(['call', 'broken', 'x'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /server "broken" has configuration errors/);
    assert.match(r.stderr, /mcpServers\.broken\.command/);
  });

  test('bad --args: invalid JSON, not an object, or failing the input schema exit 2', async () => {
    const bad = await h.run(['call', 'everything', 'echo', '--args', '{message: hi}'], { cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--args is not valid JSON/);
    const arr = await h.run(['call', 'everything', 'echo', '--args', '[1]'], { cwd: ws });
    assert.equal(arr.code, 2);
    assert.match(arr.stderr, /--args must be a JSON object, got an array/);
    const schema = await h.run(['call', 'everything', 'echo', '--args', '{"message": 5}'], { cwd: ws });
    assert.equal(schema.code, 2);
    assert.match(schema.stderr, /\/message: must be string/);
  });

  test('--timeout ends a call that never answers with exit 3', async () => {
    const r = await h.run(['call', 'errors', 'hang', '--timeout', '1500'], { cwd: ws });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /timed out after 1500 ms/);
  });

  test('a server that cannot start exits 3 with what to do', async () => {
    const dir = await h.workspace('only-missing', { missing: { command: 'no-such-command-for-mcp-host-tests' } });
    const r = await h.run(['call', 'missing', 'anything'], { cwd: dir });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /command not found/);
    assert.match(r.stderr, /absolute path/);
  });

  test('only the named server is started, and its process is gone when the CLI exits', async () => {
    const marker = join(h.dir, 'sentinel-started');
    const dir = await h.workspace('only-needed', {
      errors: { command: process.execPath, args: [h.fixture('errors-server')] },
      sentinel: {
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      },
    });
    const r = await h.run(['call', 'errors', 'pid'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const pid = Number(r.stdout.trim());
    assert.ok(pid > 0);
    assert.equal(await waitGone(pid), true, `server process ${pid} is still running`);
    assert.equal(existsSync(marker), false, 'the other server was never started');
    // The sentinel does start when a command needs every server: the check above can fail.
    await h.run(['list'], { cwd: dir });
    assert.equal(existsSync(marker), true);
  });
});

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

  test('a server that fails to connect makes doctor exit 3, with the command check and a hint', async () => {
    const dir = await h.workspace('doctor-missing', { missing: { command: 'no-such-command-for-mcp-host-tests' } });
    const r = await h.run(['doctor', '--json'], { cwd: dir });
    assert.equal(r.code, 3, r.stderr);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      servers: { name: string; state: string; command: { found: boolean; hint: string } }[];
    };
    assert.equal(report.ok, false);
    const s = report.servers[0]!;
    assert.equal(s.state, 'failed');
    assert.equal(s.command.found, false);
    assert.match(s.command.hint, /absolute path/);
  });
});

describe('interruption', () => {
  test('Ctrl+C during a call stops the server process and exits 130', async () => {
    const pidFile = join(h.dir, 'hang.pid');
    const dir = await h.workspace('interrupt', {
      errors: { command: process.execPath, args: [h.fixture('errors-server')], env: { PID_FILE: pidFile } },
    });
    const { child, exit } = h.start(['call', 'errors', 'hang'], { cwd: dir });
    const deadline = Date.now() + 60_000;
    while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(pidFile), 'the server started');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Give the CLI a moment to send the call; the interrupt must work at any point anyway.
    await new Promise((r) => setTimeout(r, 300));
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
