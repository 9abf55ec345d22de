/**
 * The gateway's forwarding fast path on the server side: a request sent as a frame of its own on a
 * connection's transport, beside the SDK client's, and its answer taken off the transport before
 * the client sees it. The SDK's request path costs a codec, a result schema, a progress map, a
 * timeout record and a response dispatch per call; a forwarded call needs only its id, its timer,
 * its progress and its cancellation, which this does as the SDK does them (same errors, same
 * `notifications/cancelled`), so `callError` reads both the same.
 *
 * It is the outermost transport of a launch (connect.ts wraps what the plugins made: the trace and
 * any telemetry wrapper see every frame, sent and answered), and the client's only transport: the
 * client sets its handlers here, this sets its inner transport's once. Ids are numbers from 2^40 up,
 * where the SDK's own counter (from 0) never reaches, and a frame's progress token is its id.
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import { markFastFrame } from '../trace/fast-frames.js';
import { WrappedTransport } from '../wrapped-transport.js';

/** First id of this channel's frames: far above any id the SDK client's counter reaches. */
const FIRST_ID = 2 ** 40;

export interface FrameOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress the server reports for this request (its `_meta.progressToken` is the frame's id). */
  onProgress?: (params: Record<string, unknown>) => void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(err: unknown): void;
  onProgress?: FrameOptions['onProgress'];
  /** Restarts the timer (a progress notification: the server is alive). */
  touch(): void;
}

/**
 * An answer to one of the channel's frames, of the shape the SDK's schema asks of a response: a
 * transport may hand it on without the schema's pass over the whole result (stdio-transport.ts),
 * since the frame channel takes it and the gateway passes the result on to a client that checks it.
 */
export function isFrameAnswer(v: unknown): v is JSONRPCMessage {
  const m = v as { jsonrpc?: unknown; id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  return (
    typeof v === 'object' &&
    v !== null &&
    m.jsonrpc === '2.0' &&
    typeof m.id === 'number' &&
    m.id >= FIRST_ID &&
    m.method === undefined &&
    (isRecord(m.result) || isRecord(m.error))
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class FrameChannel extends WrappedTransport {
  private nextId = FIRST_ID;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(inner: Transport) {
    super(inner);
    inner.onmessage = (msg: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (this.pending.size === 0 || !this.took(msg)) this.onmessage?.(msg, extra);
    };
    inner.onclose = () => {
      this.closed = true;
      this.failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      this.onclose?.();
    };
    inner.onerror = (err) => this.onerror?.(err);
  }

  /** Requests sent as frames and not yet answered (the tests' view of a cancelled call). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** A response or progress notification of one of this channel's frames: handled here, not by the client. */
  private took(msg: JSONRPCMessage): boolean {
    const m = msg as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (m.method === undefined) {
      if (typeof m.id !== 'number' || m.id < FIRST_ID) return false;
      const p = this.pending.get(m.id);
      if (!p) return m.id < this.nextId; // answered after a cancel or timeout: dropped, as the SDK drops it
      this.pending.delete(m.id);
      if (m.error !== undefined) {
        const e = isRecord(m.error) ? m.error : {};
        p.reject(ProtocolError.fromError(Number(e.code), String(e.message), e.data));
      } else p.resolve(m.result);
      return true;
    }
    if (m.method !== 'notifications/progress' || !isRecord(m.params)) return false;
    const { progressToken, ...rest } = m.params;
    if (typeof progressToken !== 'number' || progressToken < FIRST_ID) return false;
    const p = this.pending.get(progressToken);
    if (!p) return true;
    p.touch();
    p.onProgress?.(rest);
    return true;
  }

  /**
   * Sends `method` with `params` as a frame of its own and resolves with the server's `result` as
   * it came; rejects as the SDK client's `request` would (ProtocolError, SdkError).
   */
  request(method: string, params: Record<string, unknown>, o: FrameOptions): Promise<unknown> {
    if (this.closed) return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    const signal = o.signal;
    if (signal?.aborted) return Promise.reject(asSdkError(signal.reason));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: unknown): void => {
        if (!this.pending.delete(id)) return;
        done();
        const note = {
          jsonrpc: '2.0' as const,
          method: 'notifications/cancelled',
          params: { requestId: id, reason: String(reason) },
        };
        this.inner
          .send(note)
          .catch((err: unknown) => this.onerror?.(new Error(`Failed to send cancellation: ${String(err)}`)));
        reject(asSdkError(reason));
      };
      const onAbort = (): void => cancel(signal?.reason);
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(
          () => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: o.timeoutMs })),
          o.timeoutMs,
        );
      };
      this.pending.set(id, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
        ...(o.onProgress ? { onProgress: o.onProgress } : {}),
        touch: arm,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      const frameParams = o.onProgress
        ? { ...params, _meta: { ...(params._meta as object), progressToken: id } }
        : params;
      const frame = { jsonrpc: '2.0' as const, id, method, params: frameParams };
      markFastFrame(frame);
      this.inner.send(frame).catch((err: unknown) => {
        if (!this.pending.delete(id)) return;
        done();
        reject(err);
      });
    });
  }

  private failAll(err: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }
}

function asSdkError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
