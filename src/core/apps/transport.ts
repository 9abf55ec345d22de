/**
 * A bridge transport over any message pipe: the editor's webview (`postMessage` /
 * `onDidReceiveMessage`) in the extension, a `MessageChannel` in tests. Whatever arrives that is
 * not a JSON-RPC 2.0 message is dropped: the app is untrusted and the pipe carries its bytes.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** One end of a message pipe. */
export interface MessagePipe {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): { dispose(): void };
}

function isJsonRpc(m: unknown): m is JSONRPCMessage {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return false;
  const r = m as Record<string, unknown>;
  if (r.jsonrpc !== '2.0') return false;
  if (typeof r.method === 'string') return r.id === undefined || typeof r.id === 'string' || typeof r.id === 'number';
  return (typeof r.id === 'string' || typeof r.id === 'number') && ('result' in r || 'error' in r);
}

export class PipeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private sub: { dispose(): void } | undefined;
  private closed = false;
  /** Messages dropped because they were not JSON-RPC (for the log). */
  dropped = 0;

  constructor(private readonly pipe: MessagePipe) {}

  async start(): Promise<void> {
    this.sub = this.pipe.onMessage((m) => {
      if (this.closed) return;
      if (!isJsonRpc(m)) {
        this.dropped++;
        return;
      }
      this.onmessage?.(m);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the app was closed');
    this.pipe.post(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sub?.dispose();
    this.onclose?.();
  }
}
