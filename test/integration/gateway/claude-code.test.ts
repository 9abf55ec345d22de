/**
 * The real Claude Code (`@anthropic-ai/claude-code`, pinned) with `mcp-host serve` as its one MCP
 * server (`--mcp-config`, as `claude mcp add mcp-host -- mcp-host serve` registers it), over a
 * workspace with server-everything, or with the HTTP gateway (`claude mcp add --transport http`,
 * its bearer token in the entry's headers) of a host running server-everything, and a scripted model behind a fake Messages API on loopback.
 * What Claude Code offered the model and the tool results it sent back are read from the requests
 * the fake API recorded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { killTree, killTreeSync, processesMarked } from '../../../src/core/connection/process-tree.js';
import { EVERYTHING, ROOT, createHarness, type Harness } from '../cli/harness.js';
import { FakeAnthropicApi, toolResults, resultText, type Script } from '../../support/fake-anthropic-api.js';
import { withDeadline } from '../../support/wait.js';
import { startOidcFixture, type OidcFixture } from '../auth/oidc-fixture.js';
import { def } from '../connection/helpers.js';
import { GatewayViews } from '../../../src/core/gateway/index.js';
import { gatewayPathEnv, startRig, type Rig } from './helpers.js';

const CLAUDE = join(ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const STDIO_TAP = join(ROOT, 'test', 'fixtures', 'servers', 'stdio-tap.mjs');
const MARKER_VAR = 'MCP_HOST_CLAUDE_TEST_RUN';
// Claude Code names an MCP tool mcp__<config key>__<tool>; the key of serve's entry below.
const P = 'mcp__host__';

let h: Harness;
let ws: string;
/** A folder whose one server needs an OAuth sign-in first. */
let wsAuth: string;
let oidc: OidcFixture;
let settings: string;
let unavailable: string | false = false;
const live = new Set<{ pid: number; marker: string }>();
// A test that times out never reaches its finally; the file's process still ends what it started.
process.once('exit', () => {
  for (const r of live) killTreeSync(r.pid, { env: `${MARKER_VAR}=${r.marker}` });
});

before(async () => {
  const probe = existsSync(CLAUDE)
    ? spawnSync(CLAUDE, ['--version'], { encoding: 'utf8', timeout: 60_000 })
    : { status: null, stdout: '', stderr: `${CLAUDE} is not installed`, error: undefined };
  if (probe.status !== 0 || !/\d+\.\d+\.\d+/.test(probe.stdout))
    unavailable = `the claude binary cannot run on ${process.platform}-${process.arch}: ${String(probe.error ?? probe.stderr).slice(0, 300)}`;
  // npm ci installs it in CI (.ci/run): there a binary that does not run is a broken install, and
  // skipping would let every case below pass unseen.
  if (unavailable && process.env.CI) throw new Error(`${unavailable} (CI runs these cases: check npm ci's output)`);
  h = await createHarness();
  ws = await h.workspace('claude-code', {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  });
  oidc = await startOidcFixture();
  wsAuth = await h.workspace('claude-code-auth', { prot: { type: 'http', url: oidc.mcpUrl } });
  settings = join(h.dir, 'settings.json');
  await writeFile(
    settings,
    JSON.stringify({ 'mcpHost.gateway.profiles': { sums: { tools: ['everything__get-sum'] } } }),
  );
});

after(async () => {
  await oidc?.close();
  await h?.dispose();
});

interface ClaudeRun {
  api: FakeAnthropicApi;
  code: number | null;
  stdout: string;
  stderr: string;
  /** The `result` of `--output-format json`: Claude Code's final answer. */
  result: string;
}

/** serve's entry, as `claude mcp add host -- mcp-host serve …` registers it. */
function serveEntry(serveArgs: string[], workspace: string, marker: string, tapLog?: string): Record<string, unknown> {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [
      ...(tapLog ? [STDIO_TAP, tapLog, process.execPath] : []),
      h.cli,
      'serve',
      '--workspace',
      workspace,
      '--allow-project-servers',
      '--user-settings',
      settings,
      ...serveArgs,
    ],
    env: {
      MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
      MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
      ...gatewayPathEnv(),
      [MARKER_VAR]: marker,
    },
  };
}

/** The HTTP gateway's endpoint as `claude mcp add --transport http` registers it. */
interface HttpEntry {
  url: string;
  token: string;
}

/**
 * One `claude -p` run against `mcp-host serve <serveArgs>` or the HTTP gateway at `entry`,
 * allowed to use `allowed` (names without the prefix).
 */
async function claude(
  serveArgs: string[] | HttpEntry,
  allowed: string[],
  script: Script,
  prompt: string,
  workspace = ws,
  maxTurns = 6,
  tapLog?: string,
): Promise<ClaudeRun> {
  const api = await FakeAnthropicApi.start(script);
  const marker = randomBytes(12).toString('hex');
  const home = join(h.dir, `claude-home-${marker}`);
  await mkdir(join(home, 'tmp'), { recursive: true });
  const config = join(home, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        host: Array.isArray(serveArgs)
          ? serveEntry(serveArgs, workspace, marker, tapLog)
          : { type: 'http', url: serveArgs.url, headers: { Authorization: `Bearer ${serveArgs.token}` } },
      },
    }),
  );
  const child = spawn(
    CLAUDE,
    [
      // Minimal mode: no hooks, LSP, plugin sync, auto-memory, CLAUDE.md discovery or background
      // prefetches, none of which the MCP client uses; --mcp-config still applies in it.
      '--bare',
      '-p',
      prompt,
      '--output-format',
      'json',
      '--mcp-config',
      config,
      '--strict-mcp-config',
      '--max-turns',
      String(maxTurns),
      '--allowedTools',
      allowed.map((t) => (t.startsWith('mcp__') || !/__/.test(t) ? t : P + t)).join(','),
    ],
    {
      cwd: home,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        // Claude Code keeps a folder per working directory under the temp dir: keep it in this run's.
        TMPDIR: join(home, 'tmp'),
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'dummy',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // Claude Code's own tool search would hide MCP tools behind its search tool: list them in full.
        ENABLE_TOOL_SEARCH: 'false',
        MCP_TIMEOUT: '60000',
        [MARKER_VAR]: marker,
      },
    },
  );
  const entry = { pid: child.pid!, marker };
  live.add(entry);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  try {
    const code = await withDeadline(
      new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      }),
      `exit of claude -p (stdout: ${stdout.slice(-500)} stderr: ${stderr.slice(-500)})`,
      150_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nstdout: ${stdout.slice(-1000)}\nstderr: ${stderr.slice(-1000)}`);
    });
    let result = '';
    try {
      result = String((JSON.parse(stdout) as { result?: unknown }).result ?? '');
    } catch {
      // Not JSON: the assertions below show stdout.
    }
    return { api, code, stdout, stderr, result };
  } finally {
    const m = { env: `${MARKER_VAR}=${marker}` };
    await killTree(child.pid!, { marker: m });
    live.delete(entry);
    await api.close();
    assert.deepEqual(processesMarked(m), [], 'every process of the run (claude, serve, servers) is gone');
  }
}

function mcpTools(r: ClaudeRun): string[] {
  const first = r.api.turns[0];
  assert.ok(first, `Claude Code asked the model nothing with tools; stdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return (first.tools ?? []).map((t) => t.name).filter((n) => n.startsWith('mcp__'));
}

/** The tool results the model received, in order, from the last turn (it holds the whole conversation). */
function results(r: ClaudeRun): string[] {
  const last = r.api.turns.at(-1);
  return last ? toolResults(last).map(resultText) : [];
}

function show(r: ClaudeRun): string {
  return `exit ${r.code}\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-1500)}`;
}

/** The case both ways in run: Claude Code lists the gateway's tools and one echo call answers. */
async function listsAndEchoes(target: string[] | HttpEntry, message: string): Promise<void> {
  const r = await claude(
    target,
    ['everything__echo'],
    (step, last) => (step === 0 ? { tool: `${P}everything__echo`, input: { message } } : { text: `got: ${last}` }),
    `Echo ${message}.`,
  );
  const tools = mcpTools(r);
  assert.ok(tools.includes(`${P}everything__echo`), tools.join());
  assert.ok(tools.includes(`${P}everything__get-sum`), tools.join());
  assert.deepEqual(results(r), [`Echo: ${message}`], show(r));
  assert.ok(r.result.includes(`got: Echo: ${message}`), show(r));
}

/** The profile case both ways in run: only the profile's tool is offered (the `sums` profile), and its call works. */
async function addsInProfile(target: string[] | HttpEntry, a: number, b: number): Promise<void> {
  const r = await claude(
    target,
    ['everything__get-sum'],
    (step, last) => (step === 0 ? { tool: `${P}everything__get-sum`, input: { a, b } } : { text: `sum: ${last}` }),
    `Add ${a} and ${b}.`,
  );
  assert.deepEqual(mcpTools(r), [`${P}everything__get-sum`]);
  assert.equal(results(r).length, 1, show(r));
  assert.match(results(r)[0]!, new RegExp(`\\b${a + b}\\b`), show(r));
}

describe('the real Claude Code through mcp-host serve', { timeout: 600_000 }, () => {
  test('lists the gateway tools as mcp__host__<server>__<tool> and gets the fixture answer', async (t) => {
    if (unavailable) return t.skip(unavailable);
    await listsAndEchoes([], 'hi from claude');
  });

  test('--profile: Claude Code is offered only the profile tools, and the call works', async (t) => {
    if (unavailable) return t.skip(unavailable);
    await addsInProfile(['--profile', 'sums'], 2, 3);
  });

  test('--max-result-tokens: a long result reaches Claude Code cut, with a pointer it can read back', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const long = 'abcdefghij'.repeat(100);
    let uri = '';
    const r = await claude(
      ['--max-result-tokens', '50'],
      ['everything__echo', 'ReadMcpResourceTool'],
      (step, last) => {
        if (step === 0) return { tool: `${P}everything__echo`, input: { message: long } };
        if (step === 1) {
          uri = /mcp-host-result:\/\/[0-9a-f-]+\?page=1/.exec(last ?? '')?.[0] ?? '';
          if (!uri) return { text: `no pointer in: ${last}` };
          return { tool: 'ReadMcpResourceTool', input: { server: 'host', uri } };
        }
        return { text: 'read it' };
      },
      'Echo a long text.',
    );
    const [cut, page] = results(r);
    assert.ok(cut, show(r));
    assert.ok(!cut.includes(long), 'the whole text did not reach Claude Code');
    assert.match(cut, /mcp-host-result:\/\/[0-9a-f-]+\?page=1/, cut);
    assert.ok(page?.includes('abcdefghij'.repeat(5)), `page 1 read through Claude Code: ${page}\n${show(r)}`);
  });

  test('search mode: only the meta-tools are offered; the model finds get-sum and calls it unlisted', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const r = await claude(
      ['--tools', 'search'],
      ['search_tools', 'call_tool'].map((n) => P + n),
      (step, last) => {
        if (step === 0) return { tool: `${P}search_tools`, input: { query: 'add two numbers' } };
        if (step === 1) {
          const found = (JSON.parse(last ?? '{}') as { tools?: { name: string }[] }).tools ?? [];
          const hit = found.slice(0, 3).find((f) => f.name.endsWith('get-sum'));
          if (!hit) return { text: `not found: ${last}` };
          return { tool: `${P}call_tool`, input: { name: hit.name, arguments: { a: 2, b: 3 } } };
        }
        return { text: `sum: ${last}` };
      },
      'Add 2 and 3.',
    );
    assert.deepEqual(mcpTools(r).sort(), [`${P}call_tool`, `${P}get_tool_schema`, `${P}search_tools`]);
    for (const turn of r.api.turns)
      assert.ok(!(turn.tools ?? []).some((x) => x.name.includes('get-sum')), 'get-sum was never listed');
    const [search, call] = results(r);
    assert.ok(search?.includes('everything__get-sum'), `${search}\n${show(r)}`);
    assert.match(call ?? '', /\b5\b/, show(r));
  });

  test('sign-in from the agent: a server that needs it is one tool, and calling it gives the URL to open', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const r = await claude(
      [],
      ['prot__authenticate'],
      (step, last) => (step === 0 ? { tool: `${P}prot__authenticate`, input: {} } : { text: `to do: ${last}` }),
      'Use the prot server.',
      wsAuth,
    );
    assert.deepEqual(mcpTools(r), [`${P}prot__authenticate`]);
    const [answer] = results(r);
    assert.match(
      answer ?? '',
      /open this URL in a browser to sign in to prot:\s+http:\/\/127\.0\.0\.1:\d+\/auth\?\S*code_challenge=/,
      show(r),
    );
  });

  test('sign-in from the agent to the end: the user signs in at the URL, the server’s tools reach Claude Code and a call succeeds', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let signedIn = false;
    let whoami = '';
    // What Claude Code and serve say to each other, to wait for the tools/list that brings prot's tools.
    const sent = join(h.dir, `claude-sent-${randomBytes(6).toString('hex')}.ndjson`);
    await writeFile(sent, '');
    const r = await claude(
      [],
      ['prot__authenticate', 'prot__whoami', 'ListMcpResourcesTool'],
      async (step, last, req) => {
        if ((req.tools ?? []).some((x) => x.name === `${P}prot__whoami`)) {
          if (!whoami) {
            if (/^hello /.test(last ?? '')) whoami = last!;
            else return { tool: `${P}prot__whoami`, input: {} };
          }
          // Claude Code still offers the stand-in beside the real tools: the gateway no longer has it.
          if (last === whoami) return { tool: `${P}prot__authenticate`, input: {} };
          return { text: `whoami: ${whoami}; authenticate now: ${last}` };
        }
        if (step === 0) return { tool: `${P}prot__authenticate`, input: {} };
        if (!signedIn) {
          const url = /http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/.exec(last ?? '')?.[0];
          if (!url) return { text: `no URL in: ${last}` };
          // The user, in a browser: the redirect reaches serve's loopback listener, serve gets the
          // tokens and reconnects prot with them (then lists its tools and sends list_changed).
          const reached = whenMcpRequest((m) => m.authorized);
          const from = (await stat(sent)).size;
          const back = await oidc.follow(url);
          await (await fetch(back)).text();
          await withDeadline(reached, 'serve to reach prot with the new token', 60_000);
          // serve then lists prot's tools and sends tools/list_changed (two, in fact: the stand-in goes
          // first, then the tools come). Claude Code asks again on its own time, a second or so after
          // the second one: a fast turn loop used 30 turns before it had the new list.
          await withDeadline(
            whenWritten(sent, from, /"name":"prot__whoami"/),
            'Claude Code to be given the tools of prot after the sign-in',
            60_000,
          );
          signedIn = true;
        }
        // Until its next request offers the real tool (the new list is taken in after the answer
        // arrives), each turn is one more request through serve (bounded by --max-turns).
        return { tool: 'ListMcpResourcesTool', input: { server: 'host' } };
      },
      'Use the prot server.',
      wsAuth,
      30,
      sent,
    );
    assert.ok(signedIn, show(r));
    assert.match(whoami, /^hello \S+/, show(r));
    assert.match(
      r.result,
      /whoami: hello \S+; authenticate now: .*No such tool available: mcp__host__prot__authenticate/,
      show(r),
    );
  });
});

/** Resolves once the text written to `file` past byte `from` matches `re` (now or later). */
function whenWritten(file: string, from: number, re: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    // Unref'd: a run that ends at its deadline leaves nothing holding the file's process open.
    const watcher = watch(file);
    watcher.unref();
    const check = (): void => {
      readFile(file).then(
        (b) => {
          if (!re.test(b.subarray(from).toString('utf8'))) return;
          watcher.close();
          resolve();
        },
        (err: Error) => {
          watcher.close();
          reject(err);
        },
      );
    };
    watcher.on('change', check);
    watcher.on('error', reject);
    check();
  });
}

/** Resolves once the OAuth fixture's MCP endpoint receives a request that passes `test` (now or later). */
function whenMcpRequest(test: (r: OidcFixture['mcpRequests'][number]) => boolean): Promise<void> {
  const list = oidc.mcpRequests;
  if (list.some(test)) return Promise.resolve();
  return new Promise((resolve) => {
    const push = list.push.bind(list);
    list.push = (...items) => {
      const n = push(...items);
      if (items.some(test)) {
        list.push = push;
        resolve();
      }
      return n;
    };
  });
}

describe('the real Claude Code through the HTTP gateway', { timeout: 600_000 }, () => {
  let rig: Rig;
  let entry: HttpEntry;

  before(async () => {
    rig = await startRig(
      [def('everything', { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] })],
      { views: new GatewayViews({ profiles: () => ({ sums: { tools: ['everything__get-sum'] } }) }) },
    );
    entry = { url: rig.http.url, token: rig.http.token };
  });

  after(async () => {
    await rig?.dispose();
  });

  test('lists the gateway tools as mcp__host__<server>__<tool> and gets the fixture answer', async (t) => {
    if (unavailable) return t.skip(unavailable);
    await listsAndEchoes(entry, 'hi over http');
  });

  test('a profile endpoint (/mcp/sums): Claude Code is offered only the profile tools, and the call works', async (t) => {
    if (unavailable) return t.skip(unavailable);
    await addsInProfile({ ...entry, url: `${entry.url}/sums` }, 4, 5);
  });
});
