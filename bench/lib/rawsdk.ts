/** Baselines: the bare SDK, with none of the host around it. */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { join } from 'node:path';

export const TINY_SERVER = join(__dirname, '../fixtures/tiny-server.mjs');

export async function rawConnect(env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'bench-baseline', version: '1.0.0' });
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
