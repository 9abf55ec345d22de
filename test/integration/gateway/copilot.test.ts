/**
 * The real GitHub Copilot CLI (`@github/copilot`, pinned) in its offline bring-your-own-model mode
 * (`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL`: no sign-in, no telemetry, no GitHub MCP
 * server, no update check), with `mcp-host serve` as its one MCP server (`--additional-mcp-config`,
 * the entry `copilot mcp add` writes to mcp-config.json), a private COPILOT_HOME, and a scripted
 * model behind a fake Responses API on loopback. What Copilot offered the model and the tool
 * results it sent back are read from the requests the fake API recorded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVERYTHING, ROOT, createHarness, type Harness } from '../cli/harness.js';
import { FakeResponsesApi, offeredTools, toolOutputs, type Script } from '../../support/fake-responses-api.js';
import { serverScript } from '../../support/fixture-servers.js';
import { gatewayPathEnv } from '../../support/gateway-path.js';
import { agentUnavailable, runAgent, type AgentExit } from './agent-cli.js';

// npm installs the one platform package that fits (on a musl Linux, `linuxmusl`), as the loader picks it.
const COPILOT =
  [`linuxmusl-${process.arch}`, `${process.platform}-${process.arch}`]
    .map((p) => join(ROOT, 'node_modules', '@github', `copilot-${p}`, 'copilot'))
    .find((p) => existsSync(p)) ??
  join(ROOT, 'node_modules', '@github', `copilot-${process.platform}-${process.arch}`, 'copilot');
const MARKER_VAR = 'MCP_HOST_COPILOT_TEST_RUN';
const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
/** Copilot names an MCP tool `<config key>-<tool>`; the key of serve's entry below. */
const P = 'host-';

let h: Harness;
let ws: string;
/** server-everything beside a server that never answers initialize. */
let wsStuck: string;
let unavailable: string | false = false;

before(async () => {
  unavailable = process.platform === 'linux' ? agentUnavailable(COPILOT, 'copilot') : 'copilot is tested on Linux here';
  h = await createHarness();
  // serve's servers carry the run's marker too (serve expands it from its own environment), so the
  // check that nothing is left after a run sees them.
  const marked = { [MARKER_VAR]: `\${env:${MARKER_VAR}}` };
  // Two servers whose names Codex would fold into one (`ev-a` and `ev_a`): each says which it is.
  ws = await h.workspace('copilot', {
    'ev-a': { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { MCP_HOST_TEST_WHICH: 'dash', ...marked } },
    ev_a: {
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      env: { MCP_HOST_TEST_WHICH: 'underscore', ...marked },
    },
  });
  wsStuck = await h.workspace('copilot-stuck', {
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: marked },
    stuck: { command: process.execPath, args: [STDIO, '--name', 'stuck', '--delay', '600000'], env: marked },
  });
});

after(async () => {
  await h?.dispose();
});

interface CopilotRun extends AgentExit {
  api: FakeResponsesApi;
}

/** One `copilot -p` run against `mcp-host serve <serveArgs>`. */
async function copilot(serveArgs: string[], script: Script, prompt: string, workspace = ws): Promise<CopilotRun> {
  const api = await FakeResponsesApi.start(script);
  const marker = randomBytes(12).toString('hex');
  const home = join(h.dir, `copilot-${marker}`);
  const work = join(home, 'work');
  await mkdir(work, { recursive: true });
  const mcpConfig = join(home, 'mcp-config.json');
  await writeFile(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        host: {
          type: 'local',
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
          tools: ['*'],
        },
      },
    }),
  );
  try {
    const exit = await runAgent({
      bin: COPILOT,
      args: [
        '-p',
        prompt,
        '--allow-all-tools',
        '--output-format',
        'json',
        '--additional-mcp-config',
        `@${mcpConfig}`,
        '--disable-builtin-mcps',
        '--disable-client-telemetry',
        '--log-dir',
        join(home, 'logs'),
      ],
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        COPILOT_HOME: join(home, '.copilot'),
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_PROVIDER_BASE_URL: api.url,
        COPILOT_PROVIDER_WIRE_API: 'responses',
        COPILOT_PROVIDER_API_KEY: 'dummy',
        COPILOT_MODEL: 'gpt-5',
        TMPDIR: h.dir,
      },
      markerVar: MARKER_VAR,
      marker,
    });
    return { ...exit, api };
  } finally {
    await api.close();
  }
}

function show(r: CopilotRun): string {
  return `exit ${r.code}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-1500)}`;
}

/** serve's tools that Copilot offered on its first turn, without Copilot's prefix. */
function gatewayTools(r: CopilotRun): string[] {
  const first = r.api.turns[0];
  assert.ok(first, `Copilot asked the model nothing with tools\n${show(r)}`);
  return offeredTools(first)
    .filter((n) => n.startsWith(P))
    .map((n) => n.slice(P.length));
}

describe('the real Copilot CLI through mcp-host serve', { timeout: 600_000 }, () => {
  test('lists the gateway tools as host-<server>__<tool>, calls real servers’ tools, and names stay apart', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let envTools: string[] = [];
    const r = await copilot(
      [],
      (step, _last, req) => {
        if (step === 0) return { tool: `${P}ev-a__echo`, input: { message: 'hi from copilot' } };
        // Each server's get-env: one has the plain name, the other (which Codex would fold onto
        // it) the hashed one; each answers with its own environment.
        if (step === 1) envTools = offeredTools(req).filter((n) => /^host-ev[-_]a__get-env/.test(n));
        const tool = envTools[step - 1];
        return tool ? { tool, input: {} } : { text: 'done' };
      },
      'Echo hi from copilot, then show the environment of both servers.',
    );
    const tools = gatewayTools(r);
    assert.ok(tools.includes('ev-a__echo'), tools.join());
    assert.ok(tools.includes('ev-a__get-sum'), tools.join());
    // Both servers' tools (2 × server-everything's), each name distinct also as Codex folds it.
    assert.ok(tools.length >= 20, tools.join());
    assert.equal(new Set(tools.map((n) => n.replace(/[^A-Za-z0-9_]/g, '_'))).size, tools.length, tools.join());
    assert.equal(envTools.length, 2, `two get-env tools among ${tools.join()}`);
    const outputs = toolOutputs(r.api.requests.at(-1)!);
    assert.equal(outputs.length, 3, show(r));
    assert.match(outputs[0]!, /Echo: hi from copilot/, show(r));
    const which = outputs.slice(1).map((o) => /MCP_HOST_TEST_WHICH\W+(dash|underscore)/.exec(o)?.[1]);
    assert.deepEqual(
      which.sort(),
      ['dash', 'underscore'],
      `${envTools.join(', ')} each reached its own server\n${show(r)}`,
    );
    assert.equal(r.code, 0, show(r));
  });

  test('a server that never answers holds nothing back: Copilot lists and calls the other’s tools, and it ends with serve', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const r = await copilot(
      [],
      (step) =>
        step === 0 ? { tool: `${P}everything__echo`, input: { message: 'past the stuck one' } } : { text: 'done' },
      'Echo past the stuck one.',
      wsStuck,
    );
    assert.ok(gatewayTools(r).includes('everything__get-sum'), show(r));
    assert.match(toolOutputs(r.api.requests.at(-1)!)[0] ?? '', /Echo: past the stuck one/, show(r));
    assert.equal(r.code, 0, show(r));
  });
});
