/**
 * One set of servers per person (issue 39): five `mcp-host serve` sessions in one folder, as five
 * agent sessions launch them, with three servers in the folder's `.mcp.json`. Measured twice in
 * the same run: `--own-servers` (each serve starts its own servers: the baseline, what serve did
 * before) and the default shared gateway (serve-front.ts: five thin fronts, one gateway, one
 * process per server). Figures: processes (every process of the sessions' trees and of the shared
 * gateway's, the host-death watchers included), server processes, and the RSS sum of them all.
 * Linux only (/proc); elsewhere the group reports nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TINY_SERVER } from './lib/rawsdk.js';
import { BENCH_CLI } from './lib/serve-over-stdio.js';
import { figure, ratioAtMost, type Figure } from './lib/stats.js';

const SESSIONS = 5;
const SERVERS = ['one', 'two', 'three'];

/** pid → parent pid of every process, from /proc. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

/** `roots` and every process below them. */
function trees(roots: number[]): number[] {
  const ppid = parents();
  const found = new Set(roots.filter((r) => ppid.has(r)));
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of ppid)
      if (!found.has(pid) && found.has(parent)) {
        found.add(pid);
        grew = true;
      }
  }
  return [...found];
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function isServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(TINY_SERVER);
  } catch {
    return false;
  }
}

/** The shared gateways' pids (their discovery files), which are detached: no session's child. */
function sharedGateways(home: string): number[] {
  try {
    return readdirSync(join(home, 'serve')).flatMap((k) => {
      try {
        return [(JSON.parse(readFileSync(join(home, 'serve', k, 'gateway.json'), 'utf8')) as { pid: number }).pid];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

interface Measured {
  processes: number;
  servers: number;
  rssMb: number;
}

async function fiveSessions(shared: boolean): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-shared-'));
  const home = join(dir, 'mcp-host-home');
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: Object.fromEntries(SERVERS.map((n) => [n, { command: process.execPath, args: [TINY_SERVER] }])),
    }),
  );
  const sessions: { client: Client; transport: StdioClientTransport }[] = [];
  try {
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const client = new Client({ name: `bench-session-${i}`, version: '1.0.0' });
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [BENCH_CLI, 'serve', '--allow-project-servers', ...(shared ? [] : ['--own-servers'])],
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', HOME: dir, MCP_HOST_HOME: home, MCP_HOST_BLOB_DIR: join(dir, 'blobs') },
          stderr: 'ignore',
        });
        await client.connect(transport);
        sessions.push({ client, transport });
        // Every server connected and its tools listed (the first list waits for them), and one call each.
        const deadline = Date.now() + 60_000;
        for (;;) {
          const names = (await client.listTools()).tools.map((t) => t.name);
          if (SERVERS.every((s) => names.some((n) => n.startsWith(`${s}__`)))) break;
          if (Date.now() > deadline) throw new Error(`session ${i}: servers not listed: ${names.join(', ')}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        for (const s of SERVERS) {
          const tool = (await client.listTools()).tools.find((t) => t.name.startsWith(`${s}__`))!;
          await client.callTool({ name: tool.name, arguments: {} }).catch(() => undefined);
        }
      }),
    );
    const pids = trees([...sessions.map((s) => s.transport.pid!), ...sharedGateways(home)]);
    return {
      processes: pids.length,
      servers: pids.filter(isServer).length,
      rssMb: pids.reduce((n, p) => n + rssKb(p), 0) / 1024,
    };
  } finally {
    await Promise.all(sessions.map((s) => s.client.close().catch(() => undefined)));
    // The shared gateway sees its folder go and ends with its servers (listener.ts).
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function sharedServe(_quick: boolean): Promise<Figure[]> {
  if (process.platform !== 'linux') return [];
  const own = await fiveSessions(false);
  const shared = await fiveSessions(true);
  const g = 'shared-serve';
  const base = (name: string, value: number): { name: string; value: number } => ({ name, value });
  return [
    figure(
      g,
      `processes, ${SESSIONS} sessions × ${SERVERS.length} servers`,
      shared.processes,
      'processes',
      base('--own-servers', own.processes),
    ),
    figure(
      g,
      'server processes',
      shared.servers,
      'processes',
      base('--own-servers', own.servers),
      ratioAtMost(0.21, 'shared/own'),
    ),
    figure(
      g,
      'RSS sum of every process',
      shared.rssMb,
      'MB',
      base('--own-servers', own.rssMb),
      ratioAtMost(0.8, 'shared/own'),
    ),
  ];
}
