/**
 * `mcp-host serve` sessions in one folder share one gateway (serve-front.ts, serve-shared.ts):
 * five agent sessions started at once (both eras, two profiles), one process per server, each
 * session still its own profile, questions and result pages; the gateway ends a grace period after
 * its last session; a gateway killed outright takes its servers with it (the host-death watcher)
 * and the next session replaces its stale discovery file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { EVERYTHING, ROOT, alive, createHarness, type Harness } from '../cli/harness.js';
import { serverScript } from '../../support/fixture-servers.js';
import { poll } from '../../support/poll.js';
import { text, untilTools, gatewayPathEnv } from './helpers.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
const GRACE_MS = 1500;

let h: Harness;
let ws: string;
let settings: string;
let recA: string;
let recB: string;

interface Agent {
  client: Client;
  transport: StdioClientTransport;
  name: string;
  stderr: () => string;
}

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: h.dir,
    MCP_HOST_HOME: join(h.dir, 'mcp-host-home'),
    MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
    ...gatewayPathEnv(),
    MCP_HOST_SERVE_GRACE_MS: String(GRACE_MS),
  };
}

async function session(name: string, opts: { modern?: boolean; profile?: string } = {}): Promise<Agent> {
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(opts.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  // Each agent answers a question with its own name: an answer that reaches the wrong session shows.
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name } }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      h.cli,
      'serve',
      '--allow-project-servers',
      '--user-settings',
      settings,
      '--max-result-tokens',
      '40',
      ...(opts.profile ? ['--profile', opts.profile] : []),
    ],
    cwd: ws,
    env: env(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  return { client, transport, name, stderr: () => stderr };
}

/** Lines of a fixture's record file ("start|ready pid ms"), none before it exists. */
function starts(file: string): number[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('start '))
      .map((l) => Number(l.split(' ')[1]));
  } catch {
    return [];
  }
}

/** The shared gateway's discovery file (one folder under serve/: one key for these sessions). */
function discovery(): { pid: number } | undefined {
  const root = join(h.dir, 'mcp-host-home', 'serve');
  const dirs = readdirSync(root);
  assert.equal(dirs.length, 1, `one shared gateway folder: ${dirs.join(', ')}`);
  try {
    return JSON.parse(readFileSync(join(root, dirs[0]!, 'gateway.json'), 'utf8')) as { pid: number };
  } catch {
    return undefined;
  }
}

/** Processes whose command line names `script` (Linux: /proc), to count servers nobody records. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * Processes running `script` below `ancestor` (the shared gateway): other test files running
 * beside this one start the same server of their own.
 */
function processesRunning(script: string, ancestor: number): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(script)) continue;
    } catch {
      continue; // Gone while we looked.
    }
    for (let p = parentOf(Number(name)); p !== undefined && p > 1; p = parentOf(p))
      if (p === ancestor) {
        out.push(Number(name));
        break;
      }
  }
  return out;
}

async function closeAll(agents: Agent[]): Promise<void> {
  await Promise.all(agents.map((a) => a.client.close().catch(() => undefined)));
}

before(async () => {
  h = await createHarness();
  recA = join(h.dir, 'a.record');
  recB = join(h.dir, 'b.record');
  ws = await h.workspace('serve-shared', {
    a: { command: process.execPath, args: [STDIO, '--name', 'a', '--record', recA] },
    b: { command: process.execPath, args: [STDIO, '--name', 'b', '--record', recB] },
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
  });
  settings = join(h.dir, 'settings.json');
  await writeFile(settings, JSON.stringify({ 'mcpHost.gateway.profiles': { nob: { servers: ['a', 'everything'] } } }));
});

after(async () => {
  await h?.dispose();
});

describe('mcp-host serve: sessions in one folder share one gateway', { timeout: 240_000 }, () => {
  const agents: Agent[] = [];

  test('five sessions started at once: one process per server', async () => {
    agents.push(
      ...(await Promise.all([
        session('agent-0'),
        session('agent-1', { profile: 'nob' }),
        session('agent-2', { modern: true }),
        session('agent-3', { modern: true, profile: 'nob' }),
        session('agent-4'),
      ])),
    );
    for (const a of agents)
      await untilTools(a.client, (n) => n.includes('a__pid') && n.includes('everything__echo'), `${a.name} listed`);
    const pids = await Promise.all(agents.map(async (a) => text(await a.client.callTool({ name: 'a__pid' }))));
    assert.equal(new Set(pids).size, 1, `every session calls the same server a: ${pids.join(', ')}`);
    assert.deepEqual(starts(recA).map(String), [pids[0]], 'server a started once');
    assert.equal(starts(recB).length, 1, 'server b started once');
    const d = discovery();
    assert.ok(d && alive(d.pid), 'the shared gateway runs');
    if (process.platform === 'linux')
      assert.equal(processesRunning(EVERYTHING, d.pid).length, 1, 'one everything server below the shared gateway');
  });

  test('each session sees its own profile', async () => {
    for (const a of agents) {
      const names = (await a.client.listTools()).tools.map((t) => t.name);
      const profiled = a.name === 'agent-1' || a.name === 'agent-3';
      assert.equal(names.includes('b__pid'), !profiled, `${a.name}: ${names.join(', ')}`);
    }
  });

  test('a server’s question goes to the session whose call asked it, never to another', async () => {
    const ask = async (a: Agent): Promise<string> =>
      text(await a.client.callTool({ name: 'everything__trigger-elicitation-request' }));
    for (const a of agents) assert.match(await ask(a), new RegExp(`\\b${a.name}\\b`), a.name);
    // Calls of several sessions in flight on one server at once: a question the wire does not tie
    // to one of them is declined (bridge.ts), and none is ever answered by another session.
    const answers = await Promise.all(agents.map(ask));
    agents.forEach((a, i) => {
      for (const o of agents) if (o !== a) assert.doesNotMatch(answers[i]!, new RegExp(`\\b${o.name}\\b`), a.name);
    });
  });

  test('result pages are the session’s own', async () => {
    const [a0, , a2] = agents;
    const cut = text(await a0!.client.callTool({ name: 'everything__echo', arguments: { message: 'x'.repeat(600) } }));
    const uri = /mcp-host-result:\/\/[\w-]+/.exec(cut)?.[0];
    assert.ok(uri, `a cut result with a pointer: ${cut}`);
    const own = await a0!.client.readResource({ uri });
    assert.match((own.contents[0] as { text: string }).text, /xxxx/);
    // Another session (either era) holding the URI gets nothing.
    for (const other of [agents[4]!, a2!])
      await assert.rejects(other.client.readResource({ uri }), /result|resource/i, `${other.name} read another's page`);
  });

  test('a session leaving does not end the gateway; the last one leaving does, after the grace period', async () => {
    const d = discovery()!;
    await closeAll(agents.slice(1));
    // The one left is still served, by the same servers.
    const [first] = agents;
    const r = await first!.client.callTool({ name: 'a__echo', arguments: { text: 'still here' } });
    assert.match(text(r), /echo: still here/);
    assert.ok(alive(d.pid));
    const servers = [...starts(recA), ...starts(recB)];
    await closeAll([first!]);
    await poll('the shared gateway gone after its grace period', 30_000, async () => (alive(d.pid) ? undefined : true));
    await poll('its servers gone', 15_000, async () => (servers.some((p) => alive(p)) ? undefined : true));
    assert.equal(discovery(), undefined, 'the discovery file is removed');
  });

  test('a gateway killed outright: its servers end with it, and the next session starts a new one', async (t) => {
    if (process.platform !== 'linux') return t.skip('the host-death watcher needs /proc');
    const one = await session('agent-5');
    await untilTools(one.client, (n) => n.includes('a__pid'), 'agent-5 listed');
    const before = discovery()!;
    const serverA = Number(text(await one.client.callTool({ name: 'a__pid' })));
    const closed = new Promise<void>((resolve) => (one.transport.onclose = () => resolve()));
    process.kill(before.pid, 'SIGKILL');
    await closed;
    await poll('server a ended by the host-death watcher', 15_000, async () => (alive(serverA) ? undefined : true));
    assert.ok(discovery(), 'the dead gateway’s discovery file is still there (stale)');
    const next = await session('agent-6');
    try {
      await untilTools(next.client, (n) => n.includes('a__pid'), 'agent-6 listed');
      const now = discovery()!;
      assert.notEqual(now.pid, before.pid);
      assert.ok(alive(now.pid));
      assert.notEqual(Number(text(await next.client.callTool({ name: 'a__pid' }))), serverA);
    } finally {
      await next.client.close();
    }
  });
});
