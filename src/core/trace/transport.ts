/**
 * Capture of every JSON-RPC message on a connection by wrapping the SDK `Transport`: `send` is
 * what the host writes, `onmessage` what it reads. Working at this level covers every transport
 * kind (stdio, SSE, Streamable HTTP, WebSocket, in-process) with one piece of code.
 */
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/server';
import type { TraceDirection } from './record.js';

export type MessageObserver = (direction: TraceDirection, message: JSONRPCMessage) => void;

/**
 * A transport that reports each message to `observe` and otherwise is `inner`: every other
 * property read or written goes to `inner` (session ids, `finishAuth`, protocol version), so the
 * SDK Client cannot tell the difference. A throwing observer never breaks the connection.
 */
export function traceTransport(inner: Transport, observe: MessageObserver): Transport {
  const safe = (dir: TraceDirection, msg: JSONRPCMessage): void => {
    try {
      observe(dir, msg);
    } catch {
      // Tracing is a diagnostic; it must not take the connection down.
    }
  };
  let handler: Transport['onmessage'];
  inner.onmessage = (msg, extra) => {
    safe('in', msg);
    handler?.(msg, extra);
  };
  const send: Transport['send'] = (msg, options) => {
    safe('out', msg);
    return inner.send(msg, options);
  };
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'onmessage') return handler;
      if (prop === 'send') return send;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
    set(target, prop, value) {
      if (prop === 'onmessage') {
        handler = value as Transport['onmessage'];
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
}
