// Three team-gateway processes (`mcp-host serve --http`, the CLI binary) behind a real HAProxy running
// deploy/haproxy.cfg, with the real authorization server and SDK v2 clients as agents of both eras:
// 2026-07-28 requests spread over the processes; a 2025-11-25 session stays on the process that opened
// it; a killed process costs its 2025 agents their session (404, a new session on another process, the
// call answered) and its 2026 agents nothing on their next call; a drained process fails no call.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, ROOT, type Harness } from '../../cli/harness.js';
import { serverScript } from '../../../support/fixture-servers.js';
import { requireTool } from '../../../support/system-tool.js';
import { withDeadline } from '../../../support/wait.js';
import { text } from '../helpers.js';
import { startTeamIdp, type TeamIdp } from './team-idp.js';
import {
  freePort,
  pidOf,
  startGateway,
  startHaproxy,
  startNginx,
  writeGatewayConfig,
  type Balancer,
  type GatewayProcess,
} from './fleet.js';
import { TeamAgent } from './fleet-agents.js';

const skip = requireTool('haproxy', 'apt-get install haproxy');
const noNginx = requireTool('nginx', 'apt-get install nginx-light');
const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
let h: Harness;
let idp: TeamIdp;
let lb: Balancer | undefined;
let gateways: GatewayProcess[] = [];
let url: string;
let token: string;
const agents: TeamAgent[] = [];

/** The gateway process whose child (or grandchild) the upstream server with this pid is. */
function gatewayOf(serverPid: string): GatewayProcess | undefined {
  for (let pid = Number(serverPid); pid > 1;) {
    const found = gateways.find((g) => g.proc.pid === pid);
    if (found) return found;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return undefined;
}

async function agent(era: TeamAgent['era'], at = url): Promise<TeamAgent> {
  const a = new TeamAgent(at, token, era);
  agents.push(a);
  await a.connect();
  return a;
}

/** Which gateway process answered a call of `a`. */
async function servedBy(a: TeamAgent): Promise<GatewayProcess> {
  const g = gatewayOf(pidOf(await a.call('s__pid')));
  assert.ok(g, 'the upstream server belongs to one of the gateway processes');
  return g;
}

before(async () => {
  if (skip) return;
  [h, idp] = await Promise.all([createHarness(), startTeamIdp()]);
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  const config = writeGatewayConfig(join(h.dir, 'gateway.json'), {
    issuer: idp.issuer,
    resource: url,
    servers: { s: { command: process.execPath, args: [STDIO, '--name', 's'] } },
  });
  gateways = await Promise.all(
    ['gw1', 'gw2', 'gw3'].map((name) => startGateway({ cli: h.cli, name, dir: join(h.dir, name), config })),
  );
  lb = await startHaproxy({ port, gateways: gateways.map((g) => g.address) });
  token = await idp.tokenFor('alice', url);
});

after(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await lb?.stop();
  for (const g of gateways) g.proc.kill('SIGKILL');
  await idp?.close();
  await h?.dispose();
});

describe('team gateway processes behind HAProxy', { skip, timeout: 240_000 }, () => {
  test('2026-07-28 requests reach every process; a 2025-11-25 session stays on its own', async () => {
    const modern = await agent('2026-07-28');
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) seen.add((await servedBy(modern)).name);
    assert.equal(seen.size, 3, `round robin over the three processes: ${[...seen].join(', ')}`);

    const legacy = await agent('2025-11-25');
    assert.ok(legacy.sessionId, 'the gateway gave the 2025-11-25 agent a session');
    const home = await servedBy(legacy);
    for (let i = 0; i < 8; i++)
      assert.equal((await servedBy(legacy)).name, home.name, 'every call on the session’s process');
    assert.equal(legacy.sessions, 1);
  });

  test(
    'the same through nginx: a session stays on its process, 2026-07-28 calls are answered',
    { skip: noNginx },
    async () => {
      const ng = await startNginx({
        port: await freePort(),
        gateways: gateways.map((g) => g.address),
        dir: join(h.dir, 'nginx'),
      });
      try {
        const legacy = await agent('2025-11-25', `${ng.origin}/mcp`);
        const home = await servedBy(legacy);
        for (let i = 0; i < 6; i++)
          assert.equal((await servedBy(legacy)).name, home.name, 'every call on the session’s process');
        assert.equal(legacy.sessions, 1);
        const modern = await agent('2026-07-28', `${ng.origin}/mcp`);
        for (let i = 0; i < 3; i++) assert.equal(text(await modern.call('s__echo', { text: `n${i}` })), `echo: n${i}`);
        await legacy.close();
        await modern.close();
      } finally {
        await ng.stop();
      }
    },
  );

  test('a killed process: the 2025 agent starts a new session elsewhere, the 2026 agent’s next call works', async () => {
    const legacy = await agent('2025-11-25');
    const modern = await agent('2026-07-28');
    const victim = await servedBy(legacy);
    const before = legacy.sessionId;
    victim.proc.kill('SIGKILL');
    await withDeadline(victim.exited, `${victim.name} to die`, 10_000);
    const next = await servedBy(legacy);
    assert.notEqual(next.name, victim.name);
    assert.equal(legacy.sessions, 2, 'the agent was told (404) and started one new session');
    assert.notEqual(legacy.sessionId, before);
    for (let i = 0; i < 6; i++) assert.notEqual((await servedBy(modern)).name, victim.name);
    await lb!.until('DOWN', [['gw1', 'gw2', 'gw3'][gateways.indexOf(victim)]!]);
  });

  test('a drained process: the call in flight finishes, no call fails, the process leaves', async () => {
    const live = gateways.filter((g) => g.proc.exitCode === null && g.proc.signalCode === null);
    assert.ok(live.length >= 2, 'two processes left: one to drain, one to take over');
    // A 2025 agent with a slow call on the process about to drain, and agents of both eras calling throughout.
    let slowAgent: TeamAgent | undefined;
    for (let i = 0; i < 6 && !slowAgent; i++) {
      const a = await agent('2025-11-25');
      if ((await servedBy(a)).name === live[0]!.name) slowAgent = a;
    }
    assert.ok(slowAgent, `a session on ${live[0]!.name}`);
    const target = live[0]!;
    let progressed!: () => void;
    const underWay = new Promise<void>((r) => (progressed = r));
    const slow = slowAgent.call('s__slow', { ms: 3000, steps: 3 }, { onprogress: () => progressed(), timeout: 60_000 });
    await withDeadline(underWay, 'the slow call under way', 30_000);
    const callers = [await agent('2026-07-28'), await agent('2026-07-28'), await agent('2025-11-25'), slowAgent];
    let stop = false;
    const failures: string[] = [];
    let answered = 0;
    const loops = callers.slice(0, 3).map(async (a, n) => {
      for (let i = 0; !stop; i++) {
        const word = `a${n}-${i}`;
        try {
          const r = await a.call('s__echo', { text: word });
          assert.equal(text(r), `echo: ${word}`);
          answered++;
        } catch (err) {
          failures.push(`${a.era} ${word}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    });
    target.proc.kill('SIGTERM');
    assert.equal(text(await slow), 'slept 3000', 'the call in flight when the drain began completes');
    assert.equal(await withDeadline(target.exited, `${target.name} to drain and exit`, 60_000), 0, target.stderr());
    // The slow call's agent calls again: its session went with the process; a new one elsewhere.
    assert.equal(text(await slowAgent.call('s__echo', { text: 'after' })), 'echo: after');
    assert.equal(slowAgent.sessions, 2);
    stop = true;
    await Promise.all(loops);
    assert.deepEqual(failures, [], 'no call failed because of the drain');
    assert.ok(answered > 0, 'calls were made during the drain');
    await lb!.until('DOWN', [['gw1', 'gw2', 'gw3'][gateways.indexOf(target)]!]);
  });
});
