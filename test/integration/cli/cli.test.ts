// The `mcp-host` CLI run as a new user would: a folder with a `.mcp.json`, real servers over stdio
// (server-everything and fixture servers), each command line through the CLI's entry function
// (harness.ts; a few on the bundled binary).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, type Harness } from './harness.js';
import { everything, withMainWorkspace } from './main-workspace.js';

let h: Harness;
let ws: string;

withMainWorkspace((opened) => ({ h, ws } = opened));

describe('basics', () => {
  test('--version and --help exit 0', async () => {
    // On the binary: its version is the one the build put in (esbuild's define).
    const v = await h.runBinary(['--version'], { cwd: ws });
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
    const help = await h.runBinary(['list', '--help'], { cwd: ws });
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

describe('in process and as a process', () => {
  test('a command line prints the same and exits the same through runCli as through the binary', async () => {
    // What the other tests read through runCli is what a user of the binary gets (harness.ts).
    for (const args of [
      ['--json', 'list'],
      ['tools', 'errors'],
      ['call', 'nosuch', 'echo'],
      ['call', 'errors', 'fail'],
    ]) {
      const [inProcess, binary] = [await h.run(args, { cwd: ws }), await h.runBinary(args, { cwd: ws })];
      assert.deepEqual(inProcess, binary, args.join(' '));
    }
  });
});

describe('list', () => {
  test('text: every server with its state and counts; a bad entry goes to stderr with file and JSON path', async () => {
    const r = await h.run(['list'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+TRANSPORT\s+SCOPE\s+TOOLS/m);
    assert.match(r.stdout, /^everything\s+stdio\s+project\s+\d+\s+\d+\s+\d+\s+connected/m);
    assert.match(r.stdout, /^errors\s+stdio\s+project\s+5\s+0\s+0\s+connected/m);
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
