/**
 * The gateway group's mixed run (issue 38): which of the agents' requests `mcp-host serve` forwards
 * on its fast path and which on the full path, in a mix of what agents send. Two serve processes
 * (`--own-servers`, each with `--trace FILE`), each with the tiny server twice behind it: as a
 * 2025-11-25 server (`tiny`) and as a 2026-07-28 one (`modern`, ERAS=both), both with a resource
 * and a prompt (MIXED=1). A 2025-11-25 agent calls tools of both, reads the resource and gets the
 * prompt; a 2026-07-28 agent calls a tool. The agents' side is counted by the gateway (its debug
 * line at the end), the servers' side from the trace (`path` of each request record).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TINY_SERVER } from './rawsdk.js';
import { BENCH_CLI, untilTool } from './serve-over-stdio.js';

export interface PathShare {
  fast: number;
  full: number;
}

export interface MixedRun {
  /** The agents' requests of the forwarded methods, as the gateway took them. */
  agents: PathShare;
  /** The requests sent to the servers, from the trace, in all and by `server method`. */
  upstream: PathShare;
  byMethod: Record<string, PathShare>;
}

async function oneServe(dir: string, era: 'legacy' | 'modern', rounds: number, into: MixedRun): Promise<void> {
  const trace = join(dir, `trace-${era}.ndjson`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BENCH_CLI, 'serve', '--allow-project-servers', '--own-servers', '--trace', trace],
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      MCP_HOST_HOME: join(dir, 'mcp-host-home'),
      MCP_HOST_BLOB_DIR: join(dir, 'blobs'),
      MCP_HOST_LOG: 'debug',
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client(
    { name: `bench-mixed-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  try {
    // serve answers before its servers connect: wait for both servers' tools.
    await untilTool(client, 'tiny__echo');
    await untilTool(client, 'modern__echo');
    const args = { text: 'hello' };
    if (era === 'legacy') {
      const note = (await client.listResources()).resources.find((r) => r.uri.includes('tiny') || r.name === 'note');
      for (let i = 0; i < rounds; i++) {
        for (let k = 0; k < 3; k++) await client.callTool({ name: 'tiny__echo', arguments: args });
        await client.callTool({ name: 'modern__echo', arguments: args });
        if (note) await client.readResource({ uri: note.uri });
        await client.getPrompt({ name: 'tiny__greet', arguments: { who: 'Ada' } });
      }
    } else for (let i = 0; i < rounds; i++) await client.callTool({ name: 'tiny__echo', arguments: args });
  } finally {
    await client.close();
  }
  // The gateway's own count, said once it stops (serve-gateway.ts).
  for (let i = 0; i < 200 && !/fast path/.test(stderr); i++) await new Promise((r) => setTimeout(r, 25));
  const m = /(\d+) on the fast path, (\d+) on the full path/.exec(stderr);
  if (m) {
    into.agents.fast += Number(m[1]);
    into.agents.full += Number(m[2]);
  }
  for (const line of readFileSync(trace, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { server: string; direction: string; kind: string; method?: string; path?: string };
    if (r.direction !== 'out' || r.kind !== 'request' || (r.path !== 'fast' && r.path !== 'full')) continue;
    into.upstream[r.path]++;
    const key = `${r.server} ${r.method ?? ''}`;
    (into.byMethod[key] ??= { fast: 0, full: 0 })[r.path]++;
  }
}

export async function mixedRun(rounds: number): Promise<MixedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-bench-mixed-'));
  const server = (env: Record<string, string>) => ({ command: process.execPath, args: [TINY_SERVER], env });
  writeFileSync(
    join(dir, '.mcp.json'),
    JSON.stringify({
      mcpServers: { tiny: server({ MIXED: '1' }), modern: server({ MIXED: '1', ERAS: 'both' }) },
    }),
  );
  const out: MixedRun = { agents: { fast: 0, full: 0 }, upstream: { fast: 0, full: 0 }, byMethod: {} };
  try {
    await oneServe(dir, 'legacy', rounds, out);
    await oneServe(dir, 'modern', rounds, out);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
