/**
 * The real Codex CLI (`@openai/codex`, pinned; its MCP client is the Rust rmcp crate) with
 * `mcp-host serve` as its one MCP server (`[mcp_servers.mcp-host]` in a private CODEX_HOME's
 * config.toml, as `codex mcp add mcp-host -- mcp-host serve` writes it), a scripted model behind a
 * fake Responses API on loopback (`model_provider`), and every feature that reaches outside turned
 * off. What Codex offered the model and the tool results it sent back are read from the requests the
 * fake API recorded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVERYTHING, ROOT, createHarness, type Harness } from '../cli/harness.js';
import {
  FakeResponsesApi,
  offeredTools,
  toolOutputs,
  type ResponsesRequest,
  type Script,
} from '../../support/fake-responses-api.js';
import { serverScript } from '../../support/fixture-servers.js';
import { gatewayPathEnv } from '../../support/gateway-path.js';
import { agentUnavailable, runAgent, type AgentExit } from './agent-cli.js';

const CODEX = join(
  ROOT,
  'node_modules',
  '@openai',
  `codex-${process.platform}-${process.arch}`,
  'vendor',
  `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-musl`,
  'bin',
  'codex',
);
const MARKER_VAR = 'MCP_HOST_CODEX_TEST_RUN';
const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
/** Codex offers an MCP server's tools in one namespace, `mcp__` and its config key folded to `[A-Za-z0-9_]`. */
const NS = 'mcp__mcp_host';

let h: Harness;
let ws: string;
/** server-everything beside a server that never answers initialize. */
let wsStuck: string;
let settings: string;
let unavailable: string | false = false;

before(async () => {
  unavailable = process.platform === 'linux' ? agentUnavailable(CODEX, 'codex') : `codex is tested on Linux here`;
  h = await createHarness();
  // serve's servers carry the run's marker too (serve expands it from its own environment), so the
  // check that nothing is left after a run sees them.
  const marked = { [MARKER_VAR]: `\${env:${MARKER_VAR}}` };
  // Two servers whose names Codex would fold into one (`ev-a` and `ev_a`): each says which it is.
  ws = await h.workspace('codex', {
    'ev-a': { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { MCP_HOST_TEST_WHICH: 'dash', ...marked } },
    ev_a: {
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { MCP_HOST_TEST_WHICH: 'underscore', ...marked },
    },
  });
  wsStuck = await h.workspace('codex-stuck', {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: marked },
    stuck: { command: process.execPath, args: [STDIO, '--name', 'stuck', '--delay', '600000'], env: marked },
  });
  settings = join(h.dir, 'settings.json');
  await writeFile(
    settings,
    JSON.stringify({ 'mcpHost.gateway.profiles': { reads: { readOnly: true, toolSearch: 'on' } } }),
  );
});

after(async () => {
  await h?.dispose();
});

interface CodexRun extends AgentExit {
  api: FakeResponsesApi;
}

/** Codex's config.toml: the fake model, no approvals, serve as the one MCP server, nothing that reaches outside. */
async function config(api: FakeResponsesApi, serveArgs: string[], marker: string, workspace: string): Promise<string> {
  // An ES module: this file is compiled as CommonJS.
  const { stringify } = await import('smol-toml');
  return stringify({
    model: 'mcp-host-test-model',
    model_provider: 'fake',
    approval_policy: 'never',
    sandbox_mode: 'read-only',
    check_for_update_on_startup: false,
    web_search: 'disabled',
    analytics: { enabled: false },
    feedback: { enabled: false },
    agents: { enabled: false },
    // Each of these looked names up outside (api.github.com, chatgpt.com) on start.
    features: { apps: false, plugins: false, remote_plugin: false, api_key_model_discovery: false },
    model_providers: { fake: { name: 'fake', base_url: api.url, wire_api: 'responses' } },
    mcp_servers: {
      'mcp-host': {
        command: process.execPath,
        args: [h.cli, 'serve', '--workspace', workspace, '--allow-project-servers', ...serveArgs],
        env: {
          MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
          MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
          ...gatewayPathEnv(),
          // The shared gateway behind serve ends with its last session, not 30 s later: every
          // process of the run is then gone when the agent is.
          MCP_HOST_SERVE_GRACE_MS: '0',
          [MARKER_VAR]: marker,
        },
        required: true,
        // Below serve's connect timeout (30 s): a serve that waited for every server before its
        // first answer would fail Codex's session here when one server never answers.
        startup_timeout_sec: 20,
        tool_timeout_sec: 60,
      },
    },
  });
}

/** One `codex exec` run against `mcp-host serve <serveArgs>`. */
async function codex(serveArgs: string[], script: Script, prompt: string, workspace = ws): Promise<CodexRun> {
  const api = await FakeResponsesApi.start(script);
  const marker = randomBytes(12).toString('hex');
  const home = join(h.dir, `codex-${marker}`);
  const codexHome = join(home, '.codex');
  await mkdir(codexHome, { recursive: true });
  await writeFile(join(codexHome, 'config.toml'), await config(api, serveArgs, marker, workspace));
  try {
    const exit = await runAgent({
      bin: CODEX,
      args: ['exec', '--json', '--strict-config', '--skip-git-repo-check', '--ephemeral', '--ignore-rules', prompt],
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: codexHome, TMPDIR: h.dir },
      markerVar: MARKER_VAR,
      marker,
    });
    return { ...exit, api };
  } finally {
    await api.close();
  }
}

function show(r: CodexRun): string {
  return `exit ${r.code}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-1500)}`;
}

/** The names in serve's namespace that Codex offered on its first turn. */
function gatewayTools(r: CodexRun): string[] {
  const first = r.api.turns[0];
  assert.ok(first, `Codex asked the model nothing with tools\n${show(r)}`);
  return offeredTools(first)
    .filter((n) => n.startsWith(`${NS}.`))
    .map((n) => n.slice(NS.length + 1));
}

/**
 * The names Codex offers for `tool` of servers `ev-a` and `ev_a`: both fold to `ev_a__<tool>`, so
 * the gateway gives one of them the hashed form (`ev_a__<tool>_<hash>`); plain first.
 */
function bothNamed(req: ResponsesRequest, tool: string): string[] {
  const plain = `ev_a__${tool.replace(/-/g, '_')}`;
  const names = offeredTools(req)
    .filter((n) => n.startsWith(`${NS}.`))
    .map((n) => n.slice(NS.length + 1));
  return [plain, ...names.filter((n) => n.startsWith(`${plain}_`))].filter((n) => names.includes(n));
}

describe('the real Codex CLI through mcp-host serve', { timeout: 600_000 }, () => {
  test('lists the gateway tools, calls real servers’ tools, and names that Codex folds stay apart', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let envTools: string[] = [];
    const r = await codex(
      [],
      (step, _last, req) => {
        if (step === 0) return { tool: 'ev_a__echo', namespace: NS, input: { message: 'hi from codex' } };
        // Each server's get-env, under the name Codex gave it: each answers with its own environment.
        if (step === 1) envTools = bothNamed(req, 'get-env');
        const tool = envTools[step - 1];
        return tool ? { tool, namespace: NS, input: {} } : { text: 'done' };
      },
      'Echo hi from codex, then show the environment of both servers.',
    );
    const tools = gatewayTools(r);
    // Both servers' tools (2 × server-everything's), none lost to folding.
    assert.ok(tools.length >= 20, tools.join());
    assert.equal(new Set(tools).size, tools.length, tools.join());
    assert.equal(envTools.length, 2, `two get-env tools among ${tools.join()}`);
    const outputs = toolOutputs(r.api.requests.at(-1)!);
    assert.equal(outputs.length, 3, show(r));
    assert.match(outputs[0]!, /Echo: hi from codex/, show(r));
    assert.equal(r.code, 0, show(r));
    const which = outputs.slice(1).map((o) => /MCP_HOST_TEST_WHICH\W+(dash|underscore)/.exec(o)?.[1]);
    assert.deepEqual(
      which.sort(),
      ['dash', 'underscore'],
      `${envTools.join(', ')} each reached its own server\n${show(r)}`,
    );
  });

  test('search mode under approval_policy = "never": a read-only profile’s search and call run without approval', async (t) => {
    if (unavailable) return t.skip(unavailable);
    // Codex refuses, under "never", a tool not marked read-only: call_tool is marked as its
    // strongest tool, so here the profile holds only read-only tools.
    const r = await codex(
      ['--profile', 'reads', '--user-settings', settings],
      (step, last) => {
        if (step === 0) return { tool: 'search_tools', namespace: NS, input: { query: 'add two numbers' } };
        if (step === 1) {
          const found = /"name":\s*"(ev[-_]a__get-sum[^"]*)"/.exec(last ?? '')?.[1];
          if (!found) return { text: `not found: ${last}` };
          return { tool: 'call_tool', namespace: NS, input: { name: found, arguments: { a: 2, b: 3 } } };
        }
        return { text: 'done' };
      },
      'Add 2 and 3.',
    );
    assert.deepEqual(gatewayTools(r).sort(), ['call_tool', 'get_tool_schema', 'search_tools']);
    const [search, call] = toolOutputs(r.api.requests.at(-1)!);
    assert.match(search ?? '', /ev[-_]a__get-sum/, show(r));
    assert.match(call ?? '', /\b5\b/, show(r));
    assert.doesNotMatch(call ?? '', /rejected|approval/i, show(r));
  });

  test('a server that never answers holds nothing back: Codex lists and calls the other’s tools, and it ends with serve', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const r = await codex(
      [],
      (step) =>
        step === 0
          ? { tool: 'everything__echo', namespace: NS, input: { message: 'past the stuck one' } }
          : { text: 'done' },
      'Echo past the stuck one.',
      wsStuck,
    );
    assert.ok(gatewayTools(r).includes('everything__get_sum'), show(r));
    assert.match(toolOutputs(r.api.requests.at(-1)!)[0] ?? '', /Echo: past the stuck one/, show(r));
    assert.equal(r.code, 0, show(r));
  });
});
