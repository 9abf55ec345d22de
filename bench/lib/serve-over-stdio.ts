/**
 * An agent of `mcp-host serve`: an SDK client that launches the CLI over stdio, as Claude Desktop or
 * `claude mcp add mcp-host -- mcp-host serve` does, with one upstream server (the tiny server) in a
 * folder `.mcp.json`. The CLI is the bench build of src/cli/main.ts (scripts/bench.mjs), so it runs
 * bundled as it ships; HOME and the CLI's state live in a fresh folder, so nothing of this machine's
 * configuration joins in.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TINY_SERVER } from './rawsdk.js';

/** The bare SDK relay: the floor of the serve row (fixtures/sdk-relay.mjs). */
export const SDK_RELAY = join(__dirname, '../fixtures/sdk-relay.mjs');
/** The physical floor: a process that forwards bytes and reads nothing. */
export const PIPE_RELAY = join(__dirname, '../fixtures/pipe-relay.mjs');
/** The least a renaming relay does: JSON.parse, new id, JSON.stringify per line. */
export const JSON_RELAY = join(__dirname, '../fixtures/json-relay.mjs');

/** Beside run.cjs in bench/.tmp (scripts/bench.mjs builds both). */
export const BENCH_CLI = join(__dirname, 'cli.cjs');

function cpuProf(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

export interface ServeAgent {
  client: Client;
  /**
   * The processes between agent and server, whose CPU time the gateway group reads (procCpuMs):
   * the serve process, and the shared gateway it fronts when it shares one.
   */
  pids: number[];
  close(): Promise<void>;
}

/** CPU time (user + system) the processes have used so far, in ms, from /proc; undefined elsewhere. */
export function procCpuMs(pids: readonly number[]): number | undefined {
  let sum = 0;
  for (const pid of pids) {
    const ms = oneProcCpuMs(pid);
    if (ms === undefined) return undefined;
    sum += ms;
  }
  return sum;
}

function oneProcCpuMs(pid: number): number | undefined {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: /proc counts CPU time in these on every Linux architecture Node supports. */
const CLOCK_TICKS = 100;

/** The shared gateway a serve in `home` fronts: the pid its discovery file names (gateway/shared/hello.ts). */
function sharedGatewayPid(home: string): number | undefined {
  const root = join(home, 'serve');
  if (!existsSync(root)) return undefined;
  for (const key of readdirSync(root)) {
    try {
      const pid = (JSON.parse(readFileSync(join(root, key, 'gateway.json'), 'utf8')) as { pid?: unknown }).pid;
      if (typeof pid === 'number') return pid;
    } catch {
      // Not (yet) a gateway's folder.
    }
  }
  return undefined;
}

/** Resolves once the agent is listed `name`; fails after 60 s. */
export async function untilTool(client: Client, name: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await client.listTools()).tools.some((t) => t.name === name)) {
    if (Date.now() > until) throw new Error(`serve never listed ${name}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `own`: `serve --own-servers`, the servers in the serve process; else the folder's shared gateway.
 * `fullPath`: the gateway's fast path off (MCP_HOST_GATEWAY_FAST_PATH=0).
 */
export async function serveAgent(o: { own?: boolean; fullPath?: boolean } = {}): Promise<ServeAgent> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-serve-'));
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }),
  );
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    // BENCH_CPU_PROF=DIR: a CPU profile of the serve process, written to DIR when it exits.
    args: [...cpuProf(), BENCH_CLI, 'serve', '--allow-project-servers', ...(o.own ? ['--own-servers'] : [])],
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      MCP_HOST_HOME: join(dir, 'mcp-host-home'),
      MCP_HOST_BLOB_DIR: join(dir, 'blobs'),
      // The shared gateway ends with its last session, not 30 s later.
      MCP_HOST_SERVE_GRACE_MS: '0',
      ...(o.fullPath ? { MCP_HOST_GATEWAY_FAST_PATH: '0' } : {}),
    },
    stderr: 'ignore',
  });
  await client.connect(transport);
  // serve answers before its servers connect (on a loaded machine the tiny server may take seconds).
  await untilTool(client, 'tiny__echo');
  const gateway = o.own ? undefined : sharedGatewayPid(join(dir, 'mcp-host-home'));
  if (!o.own && gateway === undefined) throw new Error('serve shares no gateway: its discovery file is missing');
  return {
    client,
    pids: [transport.pid!, ...(gateway === undefined ? [] : [gateway])],
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An agent of a relay fixture: the SDK and pipe relays offer the tiny server's tools under their own
 * names, the JSON relay as `tiny__<name>`.
 */
export async function relayAgent(script = SDK_RELAY): Promise<ServeAgent> {
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'ignore' });
  await client.connect(transport);
  return { client, pids: [transport.pid!], close: () => client.close() };
}
