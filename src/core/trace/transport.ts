/**
 * Capture of every JSON-RPC message on a connection by wrapping the SDK `Transport`: `send` is
 * what the host writes, `onmessage` what it reads. Working at this level covers every transport
 * kind (stdio, SSE, Streamable HTTP, WebSocket, in-process) with one piece of code.
 */
import type { Transport, JSONRPCMessage, MessageExtraInfo, TransportSendOptions } from '@modelcontextprotocol/server';
import type { TraceDirection } from './record.js';
import { WrappedTransport } from '../wrapped-transport.js';

export type MessageObserver = (direction: TraceDirection, message: JSONRPCMessage) => void;

/**
 * What a wrapper that does more than watch (telemetry: core/telemetry/) may do, each optional and
 * each made safe here: run the delivery of a message read inside something of its own (a trace
 * context, so the handler's work is the span's), write a message with more in it (trace context
 * in `params._meta`), and hear the transport close.
 */
export interface TransportTap {
  /** Delivers `message` by calling `deliver` once (the reader's handler); not calling it delivers it anyway. */
  deliver?(message: JSONRPCMessage, deliver: () => void): void;
  /** The message to write in place of `message` (a copy: the caller's object is not changed). */
  rewrite?(message: JSONRPCMessage): JSONRPCMessage;
  closed?(): void;
}

/**
 * A transport of its own around `inner`, which it alone uses: it is `inner`'s only reader (it
 * installs `inner`'s handlers once, here, and calls its own from them) and passes everything else
 * through, so the SDK Client cannot tell the difference. The client's handlers are set on this
 * object, never on `inner`. A throwing observer never breaks the connection.
 */
export class ObservedTransport extends WrappedTransport {
  constructor(
    inner: Transport,
    private readonly observe: MessageObserver,
    private readonly tap: TransportTap = {},
  ) {
    super(inner);
    // Handlers a server-side transport's owner set before it was wrapped (the gateway's session
    // bookkeeping) stay: the SDK chains its own onto whatever it finds here.
    this.onclose = inner.onclose;
    this.onerror = inner.onerror;
    this.onmessage = inner.onmessage;
    inner.onmessage = (msg: JSONRPCMessage, extra?: MessageExtraInfo) => {
      this.safe('in', msg);
      this.deliver(msg, () => this.onmessage?.(msg, extra));
    };
    inner.onclose = () => {
      try {
        this.tap.closed?.();
      } catch {
        // As a throwing observer: never the connection's problem.
      }
      this.onclose?.();
    };
    inner.onerror = (err) => this.onerror?.(err);
  }

  private deliver(msg: JSONRPCMessage, run: () => void): void {
    if (!this.tap.deliver) return run();
    let ran = false;
    let failed: { err: unknown } | undefined;
    const once = (): void => {
      if (ran) return;
      ran = true;
      try {
        run();
      } catch (err) {
        failed = { err };
      }
    };
    try {
      this.tap.deliver(msg, once);
    } catch {
      // A throwing tap must not eat the message (delivered below if it had not been).
    }
    once();
    // The reader's own throw is its caller's, as without a tap.
    if (failed) throw failed.err;
  }

  private safe(dir: TraceDirection, msg: JSONRPCMessage): void {
    try {
      this.observe(dir, msg);
    } catch {
      // Tracing is a diagnostic; it must not take the connection down.
    }
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let out = message;
    try {
      out = this.tap.rewrite?.(message) ?? message;
    } catch {
      // Sent as it came.
    }
    this.safe('out', out);
    return this.inner.send(out, options);
  }
}

/** `inner`, every message of it reported to `observe` (the trace hub, hub.ts). */
export function traceTransport(inner: Transport, observe: MessageObserver): Transport {
  return new ObservedTransport(inner, observe);
}
