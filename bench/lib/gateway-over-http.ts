/**
 * An agent of the HTTP gateway running in its own process (gateway-child.ts), as an agent of the
 * editor's gateway is: the agent's SDK client and the gateway never share a thread, just as the
 * agent and the server of the straight-to-the-server row (sdk-over-http.ts) do not.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** Beside run.cjs in bench/.tmp (scripts/bench.mjs builds both). */
export const GATEWAY_CHILD = join(__dirname, 'gateway-child.cjs');

export interface GatewayAgent {
  client: Client;
  close(): Promise<void>;
}

/** `fullPath`: the gateway with its fast path off (MCP_HOST_GATEWAY_FAST_PATH=0), the SDK's path both ways. */
export async function gatewayAgent(o: { fullPath?: boolean } = {}): Promise<GatewayAgent> {
  // BENCH_CPU_PROF=DIR: a CPU profile of the gateway process too, written to DIR when it exits.
  const dir = process.env.BENCH_CPU_PROF;
  const child = spawn(process.execPath, [...(dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), GATEWAY_CHILD], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...(o.fullPath ? { MCP_HOST_GATEWAY_FAST_PATH: '0' } : {}) },
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const [url, token] = await new Promise<string[]>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^GATEWAY (\S+) (\S+)$/.exec(line);
      if (m) resolve([m[1]!, m[2]!]);
    });
    void exited.then(() => reject(new Error('the gateway process exited before it listened')));
  });
  lines.close();
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url!), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return {
    client,
    close: async () => {
      await client.close();
      child.stdin.end();
      await exited;
    },
  };
}
