/**
 * `serve`'s transport to its agent (its stdio, or a shared gateway session's socket): the SDK's
 * StdioServerTransport, less the per-message costs a forwarding gateway need not pay. A line is
 * parsed once; a request of well-formed shape (`jsonrpc`, an id, a method, object params: what the
 * SDK's schema checks of a request) goes on as parsed, and every other message through the SDK's
 * schema as before. The SDK's own parse of each line was a zod pass over the whole message, the
 * arguments included, which the request's handler (or the fast path, fast-path.ts) checks again.
 * Sends of one turn go out in one write (cork until the next tick, as the host's stdio transport
 * does, connection/stdio-transport.ts), without a listener per send; a send a full pipe holds back
 * waits for `drain`.
 */
import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

function uncork(out: Writable): void {
  out.uncork();
}

/** What the SDK's request schema asks of a request, by hand. */
function isPlainRequest(v: unknown): v is JSONRPCMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') return false;
  if (typeof m.id !== 'string' && !(typeof m.id === 'number' && Number.isInteger(m.id))) return false;
  return m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params));
}

export class AgentStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private partial: Buffer[] = [];
  private started = false;
  private closed = false;
  private heldBack: (() => void)[] = [];

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      const line = this.partial.length ? Buffer.concat([...this.partial, piece]) : piece;
      this.partial = [];
      this.line(line.toString('utf8'));
      if (this.closed) return;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  };

  private line(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: skipped, as the SDK's transport skips it.
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = isPlainRequest(value) ? value : JSONRPCMessageSchema.parse(value);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.onmessage?.(message);
  }

  private readonly onInputError = (err: Error): void => this.onerror?.(err);
  private readonly onInputGone = (): void => void this.close();
  private readonly onDrain = (): void => {
    const held = this.heldBack;
    this.heldBack = [];
    for (const h of held) h();
  };
  private readonly onOutputError = (err: Error): void => {
    if (this.closed) return;
    this.onerror?.(err);
    void this.close();
  };

  start(): Promise<void> {
    if (this.started) throw new Error('AgentStdioTransport already started');
    this.started = true;
    if (this.input.readableEnded || this.input.destroyed) setImmediate(this.onInputGone);
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onInputGone);
    this.input.on('close', this.onInputGone);
    this.output.on('error', this.onOutputError);
    this.output.on('drain', this.onDrain);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the agent transport is closed'));
    const out = this.output;
    if (!out.writableCorked) {
      out.cork();
      process.nextTick(uncork, out);
    }
    if (out.write(JSON.stringify(message) + '\n')) return Promise.resolve();
    return new Promise((resolve) => this.heldBack.push(resolve));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onInputGone);
    this.input.off('close', this.onInputGone);
    this.output.off('drain', this.onDrain);
    // A late write error on a closed agent pipe (EPIPE) must not crash the process.
    this.output.off('error', this.onOutputError);
    this.output.on('error', () => undefined);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.partial = [];
    this.onDrain();
    this.onclose?.();
    return Promise.resolve();
  }
}
