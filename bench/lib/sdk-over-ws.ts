/**
 * The MCP floor of the IDE path: a bare SDK `McpServer` over the same WebSocket transport the IDE
 * server uses, with one tool that answers a fixed text, and an SDK client like the agent's. No
 * IDE code runs: what the IDE server costs over this is ours; what this costs over a ws echo is
 * the SDK's (JSON-RPC framing, zod validation on both sides, the JSON-in-JSON of a text result).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { WebSocketServer } from 'ws';
import { WebSocketServerTransport } from '../../src/core/ide/ws-transport.js';
import { openSocket } from '../../test/integration/ide/agent.js';

export interface SdkOverWs {
  /** One tool call whose result is `text(name)`, as the agent makes it. */
  call(name: string): Promise<unknown>;
  /** The server's port, for another agent (bench/lib/raw-agent.ts). */
  port: number;
  close(): Promise<void>;
}

/** `answers` maps a tool name to a function giving its text; called per request, as the IDE server's tools are. */
export async function sdkOverWs(answers: Record<string, () => string>): Promise<SdkOverWs> {
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    maxPayload: 32 * 1024 * 1024,
    perMessageDeflate: false,
  });
  wss.on('connection', (ws) => {
    const server = new McpServer({ name: 'bench-sdk-floor', version: '1.0.0' });
    for (const [name, answer] of Object.entries(answers)) {
      server.registerTool(name, { description: name }, async () => ({ content: [{ type: 'text', text: answer() }] }));
    }
    void server.connect(new WebSocketServerTransport(ws));
  });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  const ws = await openSocket(port, {});
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new WebSocketServerTransport(ws));
  return {
    call: (name) => client.callTool({ name, arguments: {} }, { timeout: 180_000 }),
    port,
    close: async () => {
      await client.close();
      ws.terminate();
      await new Promise((r) => wss.close(r));
    },
  };
}
