/**
 * A client that behaves like a coding agent finding the editor: reads `<dir>/*.lock`, connects
 * with the token header and subprotocol `mcp`, initializes with the SDK Client and sends
 * `ide_connected`. Shared by the integration and end-to-end tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import WebSocket from 'ws';
import { AUTH_HEADER } from '../../../src/core/ide/auth.js';
import type { LockFileContent } from '../../../src/core/ide/lock-file.js';
import { WebSocketServerTransport } from '../../../src/core/ide/ws-transport.js';

export interface FoundLock {
  port: number;
  file: string;
  content: LockFileContent;
}

export function readLocks(dir: string): FoundLock[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d+\.lock$/.test(n))
    .map((n) => ({
      port: Number(n.slice(0, -5)),
      file: join(dir, n),
      content: JSON.parse(readFileSync(join(dir, n), 'utf8')) as LockFileContent,
    }));
}

/** Opens a raw WebSocket the way the agent does; rejects with the HTTP status when refused. */
export function openSocket(port: number, headers: Record<string, string>, host = '127.0.0.1'): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${host}:${port}`, ['mcp'], { headers, handshakeTimeout: 30_000 });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
    });
    ws.once('error', (err) => reject(err));
  });
}

export interface Agent {
  client: Client;
  ws: WebSocket;
  lock: FoundLock;
  /** Notifications the IDE sent that the SDK has no schema for (selection_changed, at_mentioned). */
  notifications: { method: string; params: Record<string, unknown> }[];
  /** Resolves with the next custom notification of this method. */
  nextNotification(method: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectAgent(lock: FoundLock, opts: { pid?: number } = {}): Promise<Agent> {
  const ws = await openSocket(lock.port, { [AUTH_HEADER]: lock.content.authToken });
  const notifications: Agent['notifications'] = [];
  const waiters: { method: string; resolve: (p: Record<string, unknown>) => void }[] = [];
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  client.fallbackNotificationHandler = async (n) => {
    const params = (n.params ?? {}) as Record<string, unknown>;
    notifications.push({ method: n.method, params });
    for (const w of waiters.filter((x) => x.method === n.method)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(params);
    }
  };
  const transport = new WebSocketServerTransport(ws);
  await client.connect(transport);
  // Not an MCP method, so it goes straight onto the wire like the agent sends it.
  await transport.send({ jsonrpc: '2.0', method: 'ide_connected', params: { pid: opts.pid ?? process.pid } });
  return {
    client,
    ws,
    lock,
    notifications,
    nextNotification(method, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${method} notification within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          method,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
    async call(name, args = {}) {
      return (await client.callTool({ name, arguments: args }, { timeout: 180_000 })) as CallToolResult;
    },
    async close() {
      await client.close();
      ws.terminate();
    },
  };
}

/** The text of each content block of a tool result. */
export function texts(r: CallToolResult): string[] {
  return r.content.map((c) => (c.type === 'text' ? c.text : `<${c.type}>`));
}

export function jsonOf<T = Record<string, unknown>>(r: CallToolResult): T {
  return JSON.parse(texts(r)[0]!) as T;
}
