/**
 * WebSocket client transport over `ws`. The SDK's WebSocketClientTransport needs a global WebSocket
 * (absent on Node 20) and cannot send headers, which remote servers need for API keys and OAuth.
 * One JSON-RPC message per text frame, subprotocol `mcp`.
 */
import type WebSocket from 'ws';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { Transport, JSONRPCMessage, OAuthClientProvider } from '@modelcontextprotocol/client';

export interface WebSocketTransportOptions {
  headers?: Record<string, string>;
  authProvider?: OAuthClientProvider;
  /** Largest accepted frame. Default 64 MiB. */
  maxPayload?: number;
}

export class WebSocketClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private ws: WebSocket | undefined;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly opts: WebSocketTransportOptions = {},
  ) {}

  private started = false;

  async start(): Promise<void> {
    if (this.started) throw new Error('WebSocketClientTransport already started');
    this.started = true;
    // `ws` loads with the first WebSocket server (in the editor from its own bundle, dist/ws-socket.js).
    const { WebSocket } = await import('./ws-socket.js');
    const headers: Record<string, string> = {};
    const tokens = await this.opts.authProvider?.tokens();
    if (tokens) headers['Authorization'] = `Bearer ${tokens.access_token}`;
    Object.assign(headers, this.opts.headers ?? {});
    // Closed while the module or the token was on its way: open nothing.
    if (this.closed) throw new Error('WebSocketClientTransport closed while starting');
    const ws = new WebSocket(this.url, 'mcp', {
      headers,
      maxPayload: this.opts.maxPayload ?? 64 * 1024 * 1024,
      perMessageDeflate: false,
    });
    this.ws = ws;
    // ws emits 'error' after terminate() during the handshake; an unheard 'error' would crash the host.
    ws.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      const onOpen = (): void => {
        ws.off('error', onError);
        ws.off('unexpected-response', onUnexpected);
        resolve();
      };
      const onError = (err: Error): void => {
        ws.off('open', onOpen);
        reject(err);
      };
      const onUnexpected = (_req: unknown, res: { statusCode?: number; statusMessage?: string }): void => {
        ws.off('open', onOpen);
        ws.off('error', onError);
        ws.terminate();
        const status = res.statusCode ?? 0;
        reject(
          status === 401
            ? new UnauthorizedError(`WebSocket upgrade refused: HTTP 401`)
            : new Error(`WebSocket upgrade refused: HTTP ${status} ${res.statusMessage ?? ''}`.trim()),
        );
      };
      ws.once('open', onOpen);
      ws.once('error', onError);
      ws.once('unexpected-response', onUnexpected);
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.onerror?.(new Error('ignored a binary WebSocket frame (MCP uses text frames)'));
        return;
      }
      let message: JSONRPCMessage;
      try {
        message = JSONRPCMessageSchema.parse(JSON.parse(data.toString()));
      } catch (e) {
        this.onerror?.(new Error(`ignored a frame that is not JSON-RPC: ${(e as Error).message}`));
        return;
      }
      this.onmessage?.(message);
    });
    ws.on('error', (err) => this.onerror?.(err));
    ws.on('close', () => this.finish());
  }

  send(message: JSONRPCMessage): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState !== ws.OPEN) return Promise.reject(new Error('WebSocket is not open'));
    return new Promise((resolve, reject) => ws.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    const ws = this.ws;
    if (ws && ws.readyState !== ws.CLOSED) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 1000);
        t.unref();
        ws.once('close', () => {
          clearTimeout(t);
          resolve();
        });
        ws.close(1000);
      });
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
