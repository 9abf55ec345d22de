/**
 * `node scripts/bench-ab.mjs [--base=REF] [...]`: one `calls` row (stdio or HTTP, one era, 16 in flight
 * and sequential) for the bare SDK v2 client and for two builds of the host side by side in one process:
 * the host at REF (default main) and the host of this checkout. Sides take turns in blocks, server
 * processes rotate, and each repetition gives a ratio of its own, so the spread says how far a
 * difference between the builds stands above the machine's noise (bench/README.md, "A/B").
 * `--side=bare|a|b` runs that side alone (for `node --cpu-prof`).
 */
import type { Client } from '@modelcontextprotocol/client';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { CANNED_SERVER, hostLikeCapabilities, rawConnect, rawConnectHttp, startTinyHttp } from './lib/rawsdk.js';
import { summarize } from './lib/stats.js';
import { concurrent, sequential, type Call } from './lib/drive.js';
import type { McpHost } from '../src/core/host.js';
import type { ServerDefinition } from '../src/core/config/types.js';

/** What each host bundle exports (scripts/bench-ab.mjs builds it from bench/lib/host.ts of its tree). */
interface HostBuild {
  quietHost(extra?: { era?: 'auto' | 'legacy' }): McpHost;
  tinyServer(name: string, env?: Record<string, string>): ServerDefinition;
  definition(name: string, config: ServerDefinition['config']): ServerDefinition;
}

const arg = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const transport = arg('transport', 'stdio') as 'stdio' | 'http';
const era = arg('era', 'modern') as 'modern' | 'legacy';
const reps = Number(arg('reps', '5'));
const block = Number(arg('block', '1000'));
const blocksPerRep = Number(arg('blocks', '6'));
const processes = Number(arg('processes', transport === 'http' ? '2' : '4'));
/** `tiny`: the SDK v2 tiny server; `canned`: one with no MCP library, so the client's work decides. */
const server = arg('server', 'tiny') as 'tiny' | 'canned';
const only = process.argv.find((a) => a.startsWith('--side='))?.slice('--side='.length);
const args = { text: 'hello' };
const warm = Number(arg('warm', '2000'));
/** `--seq=0`: throughput blocks only (a profile of the 16-in-flight path alone). */
const seq = arg('seq', '1') !== '0';

interface Side {
  name: string;
  calls: Call[];
  /** This side's stdio server processes, whose CPU is read around each block (serverCpuUs). */
  pids: number[];
  close(): Promise<void>;
}

/** Children of this process (the stdio servers: setsid(1) and our own spawn both exec). */
function children(): Set<number> {
  const out = new Set<number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === process.pid) out.add(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * CPU (µs) the processes have used, every thread: /proc's schedstat counts nanoseconds, where
 * utime/stime count 10 ms ticks (a tenth of a 1,000-call block's server time).
 */
function serverCpuUs(pids: number[]): number {
  let ns = 0;
  for (const pid of pids) {
    try {
      for (const t of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // gone
    }
  }
  return ns / 1000;
}

async function withPids(make: () => Promise<Omit<Side, 'pids'>>): Promise<Side> {
  const before = children();
  const side = await make();
  return { ...side, pids: [...children()].filter((p) => !before.has(p)) };
}

async function hostSide(name: string, build: HostBuild, urls: string[]): Promise<Omit<Side, 'pids'>> {
  const host = build.quietHost(era === 'legacy' ? { era: 'legacy' } : {});
  const names = Array.from({ length: processes }, (_, i) => `${transport}${i}`);
  host.setDefinitions(
    names.map((n, i) =>
      transport === 'http'
        ? build.definition(n, { type: 'http', url: urls[i % urls.length] })
        : server === 'canned'
          ? build.definition(n, {
              type: 'stdio',
              command: process.execPath,
              args: [CANNED_SERVER, `--id=${n}`],
              env: era === 'modern' ? { ERAS: 'both' } : {},
            })
          : build.tinyServer(n, era === 'modern' ? { ERAS: 'both' } : {}),
    ),
  );
  await host.whenSettled();
  const want = era === 'modern' ? '2026-07-28' : '2025-11-25';
  for (const n of names) {
    const st = host.server(n)?.state;
    const got = st?.kind === 'connected' ? st.protocolVersion : st?.kind;
    if (got !== want) throw new Error(`${name}: ${n} is on ${String(got)}, not ${want}`);
  }
  return { name, calls: names.map((n) => () => host.callTool(n, 'echo', args)), close: () => host.dispose() };
}

/**
 * `variant`: `min` as the `calls` rows' bare client (no capabilities); `caps` with the capabilities a
 * host declares; `listen` with a `subscriptions/listen` stream open; `like` both (a host's posture).
 */
async function bareSide(urls: string[], variant: string): Promise<Omit<Side, 'pids'>> {
  const modern = era === 'modern';
  const caps = variant === 'caps' || variant === 'like' ? hostLikeCapabilities(modern) : undefined;
  const clients: Client[] = await Promise.all(
    Array.from({ length: processes }, (_, i) =>
      transport === 'http'
        ? rawConnectHttp(urls[i % urls.length], modern, caps)
        : rawConnect(
            modern ? { ERAS: 'both' } : {},
            modern,
            true,
            caps,
            server === 'canned' ? CANNED_SERVER : undefined,
          ),
    ),
  );
  if (modern && (variant === 'listen' || variant === 'like'))
    await Promise.all(clients.map((c) => c.listen({ toolsListChanged: true })));
  return {
    name: variant === 'min' ? 'bare' : `bare-${variant}`,
    calls: clients.map((c) => () => c.callTool({ name: 'echo', arguments: args })),
    close: async () => void (await Promise.all(clients.map((c) => c.close()))),
  };
}

function spread(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)].toFixed(3)}  min ${s[0].toFixed(3)}  max ${s[s.length - 1].toFixed(3)}`;
}

async function main(): Promise<void> {
  // The host bundles sit beside this one (scripts/bench-ab.mjs), loaded at run time, not bundled in.
  const load = createRequire(__filename);
  const a = load(arg('a', './ab-a.cjs')) as HostBuild;
  const b = load(arg('b', './ab-b.cjs')) as HostBuild;
  const servers = transport === 'http' ? await Promise.all([startTinyHttp(), startTinyHttp()]) : [];
  const urls = servers.map((s) => s.url);
  const all: Side[] = [];
  for (const v of arg('bare', 'min').split(','))
    if (!only || only === 'bare') all.push(await withPids(() => bareSide(urls, v)));
  if (!only || only === 'a') all.push(await withPids(() => hostSide('a', a, urls)));
  if (!only || only === 'b') all.push(await withPids(() => hostSide('b', b, urls)));
  for (const s of all) for (const c of s.calls) await sequential(c, warm, []);
  // `--alloc-prof=FILE`: a sampling heap profile of the measured blocks, collected objects included
  // (what a call allocates, not what stays).
  const allocFile = arg('alloc-prof', '');
  const inspector = allocFile ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const rows: Record<string, { tput: number[]; cpu: number[]; p50: number[]; srv: number[] }> = {};
  for (const s of all) rows[s.name] = { tput: [], cpu: [], p50: [], srv: [] };
  console.log(
    `[ab] ${transport} ${era} (${server} server), ${processes} servers per side, ${reps} reps × ${blocksPerRep} blocks of ${block}`,
  );
  for (let r = 0; r < reps; r++) {
    const acc = new Map(all.map((s) => [s.name, { ms: 0, cpuUs: 0, sysUs: 0, srvUs: 0, n: 0, lat: [] as number[] }]));
    for (let i = 0; i < blocksPerRep; i++) {
      // Rotate which side goes first, so none always follows another.
      for (let k = 0; k < all.length; k++) {
        const s = all[(i + k) % all.length];
        const x = acc.get(s.name)!;
        const srv0 = serverCpuUs(s.pids);
        const t = await concurrent(s.calls[i % s.calls.length], block, 16);
        x.srvUs += serverCpuUs(s.pids) - srv0;
        x.ms += t.ms;
        x.cpuUs += t.cpuUs;
        x.sysUs += t.sysUs;
        x.n += block;
        if (seq) await sequential(s.calls[(i + 1) % s.calls.length], block / 2, x.lat);
      }
    }
    const line: string[] = [];
    for (const s of all) {
      const x = acc.get(s.name)!;
      rows[s.name].tput.push((x.n / x.ms) * 1000);
      rows[s.name].cpu.push(x.cpuUs / x.n);
      rows[s.name].p50.push(summarize(x.lat).p50);
      rows[s.name].srv.push(x.srvUs / x.n);
      line.push(
        `${s.name} ${((x.n / x.ms) * 1000).toFixed(0)}/s ${(x.cpuUs / x.n).toFixed(1)}µs (sys ${(x.sysUs / x.n).toFixed(1)}) srv ${(x.srvUs / x.n).toFixed(0)}µs p50 ${summarize(x.lat).p50.toFixed(3)}ms`,
      );
    }
    console.log(`[ab] rep ${r + 1}: ${line.join(' | ')}`);
  }
  if (inspector) {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    writeFileSync(allocFile, JSON.stringify(profile));
    inspector.disconnect();
  }
  const ratios = (num: string, den: string, k: 'tput' | 'cpu' | 'p50' | 'srv'): number[] =>
    rows[num][k].map((v, i) => v / rows[den][k][i]);
  const pairs: [string, string][] = [];
  const bares = Object.keys(rows).filter((k) => k.startsWith('bare'));
  for (const bb of bares) {
    if (rows.a) pairs.push(['a', bb]);
    if (rows.b) pairs.push(['b', bb]);
  }
  for (const bb of bares.slice(1)) pairs.push([bb, 'bare']);
  if (rows.a && rows.b) pairs.push(['b', 'a']);
  for (const [n, d] of pairs) {
    console.log(`[ab] ${n}/${d} throughput  ${spread(ratios(n, d, 'tput'))}`);
    console.log(`[ab] ${n}/${d} CPU/call    ${spread(ratios(n, d, 'cpu'))}`);
    console.log(`[ab] ${n}/${d} p50         ${spread(ratios(n, d, 'p50'))}`);
    if (transport === 'stdio') console.log(`[ab] ${n}/${d} server CPU  ${spread(ratios(n, d, 'srv'))}`);
  }
  for (const s of all) await s.close();
  for (const s of servers) s.stop();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
