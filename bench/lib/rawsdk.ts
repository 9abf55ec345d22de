/** Baselines: the bare SDK, with none of the host around it. */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const TINY_SERVER = join(__dirname, '../fixtures/tiny-server.mjs');

/** `modern`: negotiate the era (2026-07-28 with the tiny server), as the host does; else 2025-11-25 only. */
export async function rawConnect(env: Record<string, string> = {}, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'bench-baseline', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [TINY_SERVER],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The tiny server over Streamable HTTP (both eras, the SDK's default posture), in its own process. */
export async function startTinyHttp(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [TINY_SERVER], {
    env: { ...process.env, HTTP: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /PORT (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the tiny HTTP server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}

/** A bare SDK client over Streamable HTTP; `modern` as in rawConnect. */
export async function rawConnectHttp(url: string, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'bench-baseline', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
