/**
 * Capture of every JSON-RPC message on a connection by wrapping the SDK `Transport`: `send` is
 * what the host writes, `onmessage` what it reads. Working at this level covers every transport
 * kind (stdio, SSE, Streamable HTTP, WebSocket, in-process) with one piece of code.
 */
import type { Transport, JSONRPCMessage, MessageExtraInfo, TransportSendOptions } from '@modelcontextprotocol/server';
import type { TraceDirection } from './record.js';

export type MessageObserver = (direction: TraceDirection, message: JSONRPCMessage) => void;

type OnMessage = NonNullable<Transport['onmessage']>;

/**
 * A transport of its own around `inner`, which it alone uses: it is `inner`'s only reader (it
 * installs `inner`'s handlers once, here, and calls its own from them) and passes everything else
 * through, so the SDK Client cannot tell the difference. The client's handlers are set on this
 * object, never on `inner`. A throwing observer never breaks the connection.
 */
export class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: OnMessage;

  constructor(
    readonly inner: Transport,
    private readonly observe: MessageObserver,
  ) {
    inner.onmessage = (msg: JSONRPCMessage, extra?: MessageExtraInfo) => {
      this.safe('in', msg);
      this.onmessage?.(msg, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (err) => this.onerror?.(err);
  }

  private safe(dir: TraceDirection, msg: JSONRPCMessage): void {
    try {
      this.observe(dir, msg);
    } catch {
      // Tracing is a diagnostic; it must not take the connection down.
    }
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.safe('out', message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}

/** `inner`, every message of it reported to `observe` (the trace hub, hub.ts). */
export function traceTransport(inner: Transport, observe: MessageObserver): Transport {
  return new ObservedTransport(inner, observe);
}
