/** Baselines: the bare SDK, with none of the host around it. */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
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
