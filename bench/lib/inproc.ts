/** An in-process echo server for the in-process transport benchmarks. */
import { McpServer } from '@modelcontextprotocol/server';
import type { Transport } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function echoServer(tools = 1): McpServer {
  const server = new McpServer({ name: 'bench-inproc', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  for (let i = 1; i < tools; i++) {
    server.registerTool(
      `tool_${i}`,
      { description: `Synthetic tool ${i}`, inputSchema: z.object({ a: z.string().optional() }) },
      async () => ({
        content: [{ type: 'text', text: String(i) }],
      }),
    );
  }
  return server;
}

export async function startEcho(transport: Transport, tools = 1): Promise<void> {
  await echoServer(tools).connect(transport);
}
