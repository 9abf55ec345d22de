/**
 * A Streamable HTTP MCP server on 127.0.0.1 (port 0) that answers only requests carrying
 * `Authorization: Bearer <token>`: proof that a secret entered at install time reaches the server.
 * Stateless (a fresh server per request), one tool `echo`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface TokenServer {
  url: string;
  /** Requests seen, with whether they carried the token. */
  requests: { method: string; authorized: boolean }[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? (JSON.parse(raw) as unknown) : undefined;
}

export async function startTokenServer(token: string): Promise<TokenServer> {
  const requests: TokenServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const authorized = req.headers.authorization === `Bearer ${token}`;
    requests.push({ method: req.method ?? '', authorized });
    if (!authorized) {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'wrong or missing token' }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    void (async () => {
      const mcp = new McpServer({ name: 'secure-echo', version: '1.0.0' });
      mcp.registerTool(
        'echo',
        { description: 'Echoes the message', inputSchema: z.object({ message: z.string() }) },
        ({ message }) => ({ content: [{ type: 'text', text: message }] }),
      );
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, await body(req));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
