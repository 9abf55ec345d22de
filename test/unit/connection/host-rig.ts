/**
 * One host on in-process servers (the SDK's InMemoryTransport) with a fake clock: no processes,
 * no wall-clock waits. Shared by the tests of the host (mcp-host.test.ts) and of its per-server
 * objects driven through it (server-connection.test.ts, server-entry.test.ts).
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FakeClock, MemoryLogger } from '../../support/fakes.js';

export function inProcess(name: string, start: (t: Transport) => Promise<void>, timeout?: number): ServerDefinition {
  const config = { type: 'inprocess' as const, id: name, start, ...(timeout !== undefined ? { timeout } : {}) };
  return {
    name,
    config,
    source: { scope: 'dynamic', file: 'test', jsonPath: [name] },
    signature: `inprocess:${name}`,
    hash: `h-${name}`,
  };
}

/** A real MCP server with one `echo` tool; returns the server so a test can change its tools. */
export function echoServer(label = 'echo'): { start: (t: Transport) => Promise<void>; servers: McpServer[] } {
  const servers: McpServer[] = [];
  return {
    servers,
    start: async (t) => {
      const s = new McpServer({ name: label, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
      s.registerTool(
        'echo',
        { description: 'echo', inputSchema: z.object({ message: z.string() }) },
        ({ message }) => ({
          content: [{ type: 'text', text: `${label}:${message}` }],
        }),
      );
      servers.push(s);
      await s.connect(t);
    },
  };
}

export function newHost(
  t: { after(fn: () => Promise<void>): void },
  clock = new FakeClock(),
): { host: McpHost; clock: FakeClock; log: MemoryLogger } {
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: '/nonexistent-blobs', env: {}, clock });
  t.after(() => host.dispose());
  return { host, clock, log };
}
