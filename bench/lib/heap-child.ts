/**
 * Heap held per connected server, measured in a fresh Node process (`bare` SDK clients with their
 * tool lists, or the `host`): run in the benchmark's own process, memory freed late by whatever
 * ran before (the 2,000-tool host, the other side's clients) landed inside the next measurement,
 * and the bare figure came out from -33 to +98 KB per server for the same code.
 * argv: bare|host SERVERS TOOLS; prints the MB per server as JSON.
 */
import type { Client } from '@modelcontextprotocol/client';
import { quietHost, tinyServer } from './host.js';
import { rawConnect } from './rawsdk.js';

function heapMb(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function bare(servers: number, tools: number): Promise<number> {
  const h0 = heapMb();
  const clients: Client[] = [];
  for (let i = 0; i < servers; i += 10) {
    clients.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, servers - i) }, () => rawConnect({ TOOLS: String(tools) })),
      )),
    );
  }
  const lists = await Promise.all(clients.map((c) => c.listTools()));
  const mb = (heapMb() - h0) / servers;
  if (lists.some((l) => l.tools.length !== tools)) throw new Error('bare: a tool list came back short');
  await Promise.all(clients.map((c) => c.close()));
  return mb;
}

async function host(servers: number, tools: number): Promise<number> {
  const h0 = heapMb();
  const many = quietHost();
  many.setDefinitions(Array.from({ length: servers }, (_, i) => tinyServer(`m${i}`, { TOOLS: String(tools) })));
  await many.whenSettled();
  const mb = (heapMb() - h0) / servers;
  const bad = many.servers().filter((s) => s.state.kind !== 'connected' || s.tools.length !== tools);
  if (bad.length)
    throw new Error(
      `host: not all connected with ${tools} tools: ${bad.map((s) => `${s.name}:${s.state.kind}`).join(', ')}`,
    );
  await many.dispose();
  return mb;
}

async function main(): Promise<void> {
  const [mode, servers, tools] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  // Warm up once (module loading, JIT, first-use caches) so only per-server memory is counted.
  await (mode === 'host' ? host(2, tools) : bare(2, tools));
  const mb = await (mode === 'host' ? host(servers, tools) : bare(servers, tools));
  // Exit once the figure is out rather than wait for every closed server's last handle.
  process.stdout.write(JSON.stringify(mb), () => process.exit(0));
}

void main().catch((err: unknown) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err));
  process.exitCode = 1;
});
