/**
 * An agent that costs next to nothing: JSON-RPC written and read by hand over one WebSocket, no SDK
 * client. Claude Code and Gemini CLI run their MCP client in a process of their own; in the bench
 * the SDK agent shares this process with the server, so its cost (zod on every response, about as
 * much again as the server's) lands on the server's figure. Beside it, this one leaves the server's.
 */
import type { WebSocket } from 'ws';
import { openSocket } from '../../test/integration/ide/agent.js';

export interface RawAgent {
  /** One `tools/call`; resolves when its answer arrives (read as JSON, not checked further). */
  call(name: string): Promise<void>;
  close(): void;
}

export async function rawAgent(port: number, headers: Record<string, string>): Promise<RawAgent> {
  const ws: WebSocket = await openSocket(port, headers);
  const waiting = new Map<number, () => void>();
  ws.on('message', (m) => {
    const id = (JSON.parse(String(m)) as { id?: number }).id;
    if (id === undefined) return;
    waiting.get(id)?.();
    waiting.delete(id);
  });
  let next = 0;
  const request = (method: string, params: unknown): Promise<void> =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-raw-agent', version: '1.0.0' },
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return {
    call: (name) => request('tools/call', { name, arguments: {} }),
    close: () => ws.terminate(),
  };
}
