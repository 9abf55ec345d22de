/**
 * A server writing 200 MB to stderr: host RSS growth, against the bare SDK transport with its
 * stderr piped and drained by a listener that keeps nothing.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { figure, type Figure } from './lib/stats.js';
import { TINY_SERVER } from './lib/rawsdk.js';
import { quietHost, tinyServer } from './lib/host.js';

function rssMb(): number {
  return process.memoryUsage().rss / 1024 / 1024;
}

async function watchPeak(done: () => boolean, timeoutMs: number): Promise<number> {
  let peak = rssMb();
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('stderr flood did not finish in time');
    peak = Math.max(peak, rssMb());
    await new Promise((r) => setTimeout(r, 20));
  }
  return Math.max(peak, rssMb());
}

export async function flood(quick: boolean): Promise<Figure[]> {
  const mb = quick ? 10 : 200;
  globalThis.gc?.();

  const base0 = rssMb();
  let bareDone = false;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TINY_SERVER],
    env: { ...(process.env as Record<string, string>), STDERR_MB: String(mb) },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (b: Buffer) => {
    if (b.includes('FLOOD-DONE')) bareDone = true;
  });
  const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
  await client.connect(transport);
  const barePeak = await watchPeak(() => bareDone, 300_000);
  await client.close();
  globalThis.gc?.();

  const host0 = rssMb();
  const host = quietHost();
  host.setDefinitions([tinyServer('flood', { STDERR_MB: String(mb) })]);
  await host.whenSettled();
  const hostPeak = await watchPeak(() => host.recentStderr('flood').includes('FLOOD-DONE'), 300_000);
  const stillWorks = await host.callTool('flood', 'echo', { text: 'ok' });
  await host.dispose();
  if (stillWorks.isError) throw new Error('server stopped answering under the flood');

  return [
    figure(
      'flood',
      `RSS growth while a server writes ${mb} MB to stderr`,
      hostPeak - host0,
      'MB',
      { name: 'bare SDK, stderr drained', value: barePeak - base0 },
      {
        text: '< 70 MB',
        ok: (v) => v < 70,
      },
    ),
  ];
}
