/**
 * An SDK `Transport` over one accepted `ws` connection (the SDK ships WebSocket only as a client,
 * and that one needs a global WebSocket). One JSON-RPC message per text frame. Garbage from the
 * peer is answered with a JSON-RPC error (or dropped when it looks like a response) and never
 * reaches the protocol layer, so one bad frame cannot take the connection down.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/server';
import WebSocket from 'ws';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

function requestId(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function looksLikeResponse(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !('method' in value) && ('result' in value || 'error' in value);
}

/**
 * Flow control: answers a peer has not read wait in our memory (`ws.bufferedAmount`). Over
 * `pauseAtBytes` no more requests are read from it (they wait in its own socket) until half of
 * that has drained; over `closeAtBytes` (answers already in flight when reading stopped) it is
 * disconnected.
 */
export interface Backpressure {
  pauseAtBytes: number;
  closeAtBytes: number;
  onBackpressure?(what: 'paused' | 'closed', bufferedBytes: number): void;
}

/** Frames at least this long take the ASCII path of frameData; a small one is not worth the count. */
const ASCII_PATH_CHARS = 64 * 1024;

/**
 * What goes into the text frame. `ws` encodes a string as UTF-8, a pass over every character; a
 * frame of ASCII only (its UTF-8 length is its length, which V8 counts fast) is the same bytes
 * as Latin-1, which is a copy. A large result (getDiagnostics of a workspace) saves the pass;
 * the bytes on the wire are the same.
 */
function frameData(text: string): string | Buffer {
  if (text.length < ASCII_PATH_CHARS || Buffer.byteLength(text, 'utf8') !== text.length) return text;
  return Buffer.from(text, 'latin1');
}

/** Answers some requests before the SDK sees them with their whole frame (direct-calls.ts); undefined hands it on. */
export type DirectPath = (message: unknown) => string | undefined;

/** The connection's socket, corked while one read's requests are answered (see `corkForTick`). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

export class WebSocketServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private started = false;
  private closed = false;
  private paused = false;
  private corked = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly backpressure?: Backpressure,
    private readonly direct?: DirectPath,
    /** The socket under `ws`; given, direct answers to the requests of one read leave in one write. */
    private readonly socket?: Corkable,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('WebSocketServerTransport already started');
    this.started = true;
    this.ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.ws.on('error', (err) => this.onerror?.(err));
    this.ws.on('close', () => this.finish());
    if (this.ws.readyState === WebSocket.CLOSED || this.ws.readyState === WebSocket.CLOSING) this.finish();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.sendRaw(message);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private sendRaw(payload: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error('WebSocket is not open'));
        return;
      }
      this.ws.send(frameData(JSON.stringify(payload)), { binary: false }, (err) => {
        this.drained();
        if (err) reject(err);
        else resolve();
      });
      this.checkBuffered();
    });
  }

  /** A frame built whole by the direct path: no promise, nobody waits for it. */
  private sendFrame(frame: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.corkForTick();
    this.ws.send(frameData(frame), { binary: false }, () => this.drained());
    this.checkBuffered();
  }

  /**
   * An agent with several requests in flight sends them back to back, and one read often holds a
   * few: their answers, all sent in this tick, go out in one write instead of one system call each
   * (ws corks per frame inside ours). Uncorked before the tick ends, so no answer waits for another.
   */
  private corkForTick(): void {
    const socket = this.socket;
    if (!socket || this.corked) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  private checkBuffered(): void {
    const bp = this.backpressure;
    if (!bp) return;
    const buffered = this.ws.bufferedAmount;
    if (buffered > bp.closeAtBytes) {
      bp.onBackpressure?.('closed', buffered);
      this.ws.terminate();
    } else if (buffered > bp.pauseAtBytes && !this.paused) {
      this.paused = true;
      this.ws.pause();
      bp.onBackpressure?.('paused', buffered);
    }
  }

  /** A send completed: resume reading once the backlog is down to half the pause mark. */
  private drained(): void {
    if (!this.paused || !this.backpressure || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount <= this.backpressure.pauseAtBytes / 2) {
      this.paused = false;
      this.ws.resume();
    }
  }

  private replyError(id: string | number | null, code: number, message: string): void {
    this.sendRaw({ jsonrpc: '2.0', id, error: { code, message } }).catch(() => {
      // The peer went away; nothing left to tell it.
    });
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) {
      this.replyError(
        null,
        INVALID_REQUEST,
        'Binary frames are not accepted: send one JSON-RPC message per text frame',
      );
      return;
    }
    // A Buffer is what ws hands us (binaryType 'nodebuffer'): decode it in place; Buffer.from()
    // of a Buffer would copy every frame first.
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.replyError(null, PARSE_ERROR, 'Parse error: the frame is not valid JSON');
      return;
    }
    const answer = this.direct?.(json);
    if (answer !== undefined) {
      this.sendFrame(answer);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      // Answering a malformed response would start a ping-pong of errors; drop it instead.
      if (looksLikeResponse(json)) {
        this.onerror?.(new Error('Dropped a malformed JSON-RPC response'));
        return;
      }
      this.replyError(requestId(json), INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
