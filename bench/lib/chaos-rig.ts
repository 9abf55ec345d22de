/**
 * What the chaos benchmark runs on: the servers of bench/fixtures/chaos-server.mjs, a `.mcp.json`
 * read by the core registry (as `mcp-host serve` reads one), the host, and the gateway over HTTP
 * (its agents run in a process of their own: chaos-agents.ts).
 * Every server process carries the run's marker in its argv, so a /proc scan finds what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/core/config/load.js';
import { ServerRegistry, type DisabledServersPort } from '../../src/core/config/server-registry.js';
import { Gateway, GatewayBridge, GatewayHttpServer, gatewayFeatures } from '../../src/core/gateway/index.js';
import { createHost, type McpHost } from '../../src/core/host.js';
import { INSTANCE_ENV } from '../../src/core/connection/process-tree.js';
import { nullLogger } from '../../src/core/ports.js';

export const CHAOS_SERVER = join(__dirname, '../fixtures/chaos-server.mjs');

export type Fault = 'none' | 'crash' | 'hang' | 'exit' | 'slow' | 'garbage' | 'drop' | 'expire';

export interface ChaosServer {
  name: string;
  transport: 'stdio' | 'http';
  fault: Fault;
  /** A setsid grandchild that ignores SIGTERM: only a whole-tree stop ends it. */
  grandchild?: boolean;
  /** Default legacy (2025-11-25). */
  era?: Era;
}

export type Era = 'legacy' | 'modern';

/**
 * The 27 servers: 20 on the 2025-11-25 era, 7 on 2026-07-28 (`era: 'modern'`, SDK v2's serveStdio and
 * createMcpHandler), with the faults that apply to them (a stateless modern HTTP server has no
 * session to expire).
 */
export const SERVERS: ChaosServer[] = [
  ...[0, 1, 2, 3].map((i) => ({ name: `ok-stdio-${i}`, transport: 'stdio' as const, fault: 'none' as const })),
  { name: 'ok-stdio-tree', transport: 'stdio', fault: 'none', grandchild: true },
  { name: 'crash-0', transport: 'stdio', fault: 'crash', grandchild: true },
  { name: 'crash-1', transport: 'stdio', fault: 'crash' },
  { name: 'hang-0', transport: 'stdio', fault: 'hang' },
  { name: 'hang-1', transport: 'stdio', fault: 'hang' },
  { name: 'exit-0', transport: 'stdio', fault: 'exit', grandchild: true },
  { name: 'exit-1', transport: 'stdio', fault: 'exit' },
  { name: 'slow-0', transport: 'stdio', fault: 'slow' },
  { name: 'garbage-0', transport: 'stdio', fault: 'garbage' },
  { name: 'garbage-1', transport: 'stdio', fault: 'garbage' },
  { name: 'ok-http-0', transport: 'http', fault: 'none' },
  { name: 'ok-http-1', transport: 'http', fault: 'none' },
  { name: 'drop-0', transport: 'http', fault: 'drop' },
  { name: 'drop-1', transport: 'http', fault: 'drop' },
  { name: 'expire-0', transport: 'http', fault: 'expire' },
  { name: 'slow-http-0', transport: 'http', fault: 'slow' },
  { name: 'm-ok-stdio-0', transport: 'stdio', fault: 'none', era: 'modern' },
  { name: 'm-ok-http-0', transport: 'http', fault: 'none', era: 'modern' },
  { name: 'm-crash-0', transport: 'stdio', fault: 'crash', era: 'modern', grandchild: true },
  { name: 'm-exit-0', transport: 'stdio', fault: 'exit', era: 'modern', grandchild: true },
  { name: 'm-hang-0', transport: 'stdio', fault: 'hang', era: 'modern' },
  { name: 'm-garbage-0', transport: 'stdio', fault: 'garbage', era: 'modern' },
  { name: 'm-drop-0', transport: 'http', fault: 'drop', era: 'modern' },
];

export function eraOf(s: ChaosServer): Era {
  return s.era ?? 'legacy';
}

export function isHealthy(s: ChaosServer): boolean {
  return s.fault === 'none';
}

/**
 * Pids of live processes whose argv or environment carries `marker`. Every process of a run has it
 * in both (`--run=` and `CHAOS_RUN`): a server that rewrites its argv, or a helper started with a
 * clean environment, is still counted.
 */
export function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'latin1');
      if (cmd.includes(marker)) {
        // A zombie has an empty cmdline; one that has exited but is not reaped yet is not "left".
        const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
        if (!/\) Z /.test(stat)) out.push(Number(d));
        continue;
      }
      if (readFileSync(`/proc/${d}/environ`, 'latin1').includes(marker)) out.push(Number(d));
    } catch {
      // Gone between readdir and read, or not ours to read.
    }
  }
  return out;
}

/**
 * `pid ppid instance argv…` of a process the run left, to tell which fault or operation leaked it;
 * the host's instance marker pairs a leftover grandchild with its server's start.
 */
export function describeProcess(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
    const instance = readFileSync(`/proc/${pid}/environ`, 'latin1')
      .split('\0')
      .find((e) => e.startsWith(`${INSTANCE_ENV}=`))
      ?.slice(INSTANCE_ENV.length + 1, INSTANCE_ENV.length + 9);
    return `${pid} (parent ${ppid}, instance ${instance ?? 'none'}) ${argv.replace(/\S*chaos-server\.mjs/, 'chaos-server.mjs').slice(0, 200)}`;
  } catch {
    return `${pid} (gone)`;
  }
}

export interface ChaosRig {
  marker: string;
  host: McpHost;
  registry: ServerRegistry;
  gatewayUrl: string;
  gatewayToken: string;
  /** Rewrites `.mcp.json` with `servers` (an edit bumps an env value of the ones in `bump`) and reloads. */
  writeConfig(servers: ChaosServer[], bump?: Set<string>): Promise<void>;
  setDisabled(name: string, disabled: boolean): Promise<void>;
  dispose(): Promise<void>;
}

async function startHttp(s: ChaosServer, marker: string, seed: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      CHAOS_SERVER,
      '--http',
      '--fault',
      s.fault,
      '--seed',
      String(seed),
      '--id',
      s.name,
      `--era=${eraOf(s)}`,
      `--run=${marker}`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, CHAOS_RUN: marker } },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${s.name} exited (${code}) before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

export async function startChaosRig(seed: number): Promise<ChaosRig> {
  const marker = `mcp-chaos-run-${process.pid}-${Date.now()}`;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-chaos-'));
  const file = join(dir, '.mcp.json');
  const http = new Map<string, { child: ChildProcess; url: string }>();
  for (const [i, s] of SERVERS.entries())
    if (s.transport === 'http') http.set(s.name, await startHttp(s, marker, seed + i));
  const generation = new Map<string, number>();
  const entry = (s: ChaosServer, i: number) => {
    if (s.transport === 'http') return { type: 'http', url: http.get(s.name)!.url };
    const args = [CHAOS_SERVER, '--fault', s.fault, '--seed', String(seed + i), '--id', s.name];
    args.push(`--era=${eraOf(s)}`, `--run=${marker}`);
    if (s.grandchild) args.push('--grandchild');
    const env = { CHAOS_GEN: String(generation.get(s.name) ?? 0), CHAOS_RUN: marker };
    return { type: 'stdio', command: process.execPath, args, env };
  };
  const disabledNames = new Set<string>();
  const disabled: DisabledServersPort = {
    names: () => [...disabledNames],
    set: async (name, off) => void (off ? disabledNames.add(name) : disabledNames.delete(name)),
  };

  const bridge = new GatewayBridge();
  const host = createHost({
    logger: nullLogger,
    blobDir: mkdtempSync(join(tmpdir(), 'mcp-chaos-blobs-')),
    timeouts: { connectMs: 10_000, toolCallMs: 2_000 },
    backoff: { baseMs: 50, maxMs: 500, maxAttempts: 1000 },
    env: {},
    elicitation: bridge,
    features: bridge.featureOptions(),
  });
  const registry = new ServerRegistry({
    log: nullLogger,
    read: () => readConfig({ folders: [dir], systemManagedPath: '', env: {}, homeDir: dir }),
    apply: (defs) => host.setDefinitions(defs),
    trusted: () => true,
    disabled,
  });
  const gateway = new Gateway({ host, logger: nullLogger, bridge, features: gatewayFeatures(host) });
  const gw = await GatewayHttpServer.start({ gateway, logger: nullLogger, maxSessions: 32 });

  const rig: ChaosRig = {
    marker,
    host,
    registry,
    gatewayUrl: gw.url,
    gatewayToken: gw.token,
    async writeConfig(servers, bump = new Set()) {
      for (const n of bump) generation.set(n, (generation.get(n) ?? 0) + 1);
      const mcpServers = Object.fromEntries(servers.map((s) => [s.name, entry(s, SERVERS.indexOf(s))]));
      writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
      await registry.reload();
    },
    async setDisabled(name, off) {
      await disabled.set(name, off);
      await registry.readmit();
    },
    async dispose() {
      await gw.dispose();
      await gateway.dispose();
      registry.dispose();
      await host.dispose();
      for (const { child } of http.values()) {
        if (child.exitCode !== null) continue;
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
    },
  };
  return rig;
}
