/**
 * The MCP floor of the gateway path: a bare SDK `McpServer` with the tiny server's `echo` tool
 * over the same Streamable HTTP server transport the gateway uses, on a plain node:http server
 * with one transport per session and none of the gateway's checks, and an SDK client like the
 * agent's. What the gateway costs over this is ours; what this costs over the stdio call is the
 * SDK's HTTP path (fetch, the web-standard Request/Response bridge, SSE framing).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { z } from 'zod';

export interface SdkOverHttp {
  echo(text: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function sdkOverHttp(): Promise<SdkOverHttp> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const sid = req.headers['mcp-session-id'];
      const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (known) return known.handleRequest(req, res);
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
      });
      const server = new McpServer({ name: 'bench-http-floor', version: '1.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echo the text back', inputSchema: z.object({ text: z.string() }) },
        async ({ text }) => ({ content: [{ type: 'text', text }] }),
      );
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    echo: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    close: async () => {
      await client.close();
      await Promise.all([...sessions.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
