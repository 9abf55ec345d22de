/**
 * One traced JSON-RPC message and the pure helpers around it: classifying a message, pairing a
 * response with its request (for the duration), redaction and NDJSON. No I/O here.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { REDACTED, redactValue } from '../redact.js';
import { framePath, type FramePath } from './fast-frames.js';

/** `out`: host → server; `in`: server → host. */
export type TraceDirection = 'in' | 'out';
export type TraceKind = 'request' | 'response' | 'error' | 'notification';

export interface TraceRecord {
  /** ISO time the message was sent or received. */
  time: string;
  server: string;
  direction: TraceDirection;
  kind: TraceKind;
  /** For responses: the method of the request they answer (when it was seen). */
  method?: string;
  id?: string | number;
  /** For responses: ms since the paired request. */
  durationMs?: number;
  /**
   * A `tools/call`, `resources/read` or `prompts/get` to the server and its answer: `fast` when it
   * was forwarded as a frame (connection/frame-channel.ts), `full` when it took the SDK client's path.
   */
  path?: FramePath;
  /** Bytes of the message as JSON (before redaction). */
  size: number;
  /** The message, redacted. */
  message: unknown;
}

export function classify(msg: JSONRPCMessage): { kind: TraceKind; method?: string; id?: string | number } {
  const m = msg as { method?: unknown; id?: unknown; error?: unknown };
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
  if (typeof m.method === 'string')
    return id !== undefined ? { kind: 'request', method: m.method, id } : { kind: 'notification', method: m.method };
  return { kind: m.error !== undefined ? 'error' : 'response', ...(id !== undefined ? { id } : {}) };
}

/**
 * Redacts like the logs (secret-looking keys, tokens, `env` blocks) and additionally every literal
 * secret value given (a server's own env and header values, which a server may echo back).
 */
export function redactMessage(msg: unknown, secrets: readonly string[]): unknown {
  const redacted = redactValue(msg);
  const literal = secrets.filter((s) => s.length >= 4);
  if (literal.length === 0) return redacted;
  let text = JSON.stringify(redacted);
  for (const s of literal) {
    // Match the value as it appears inside JSON text (quotes and backslashes escaped).
    const inJson = JSON.stringify(s).slice(1, -1);
    text = text.split(inJson).join(REDACTED);
  }
  return JSON.parse(text) as unknown;
}

/** Pairs responses with requests per direction, so each response carries its method and duration. */
export class RequestPairer {
  private readonly pending = new Map<string, { method: string; at: number; path?: FramePath }>();

  /** Remembers a request; `dir` is the direction the request travelled. */
  request(dir: TraceDirection, id: string | number, method: string, at: number, path?: FramePath): void {
    this.pending.set(`${dir}:${typeof id}:${id}`, { method, at, ...(path ? { path } : {}) });
    // A server that never answers must not grow this map forever.
    if (this.pending.size > 10_000) this.pending.delete(this.pending.keys().next().value!);
  }

  /** The request a response travelling in `dir` answers (it went the other way), removed. */
  response(
    dir: TraceDirection,
    id: string | number,
    at: number,
  ): { method: string; durationMs: number; path?: FramePath } | undefined {
    const key = `${dir === 'in' ? 'out' : 'in'}:${typeof id}:${id}`;
    const req = this.pending.get(key);
    if (!req) return undefined;
    this.pending.delete(key);
    return { method: req.method, durationMs: at - req.at, ...(req.path ? { path: req.path } : {}) };
  }
}

/** Builds a record from a raw message (redacting it); `pairer` fills method/duration of responses. */
export function makeRecord(
  server: string,
  direction: TraceDirection,
  msg: JSONRPCMessage,
  at: number,
  pairer: RequestPairer,
  secrets: readonly string[],
): TraceRecord {
  const c = classify(msg);
  const rec: TraceRecord = {
    time: new Date(at).toISOString(),
    server,
    direction,
    kind: c.kind,
    size: Buffer.byteLength(JSON.stringify(msg), 'utf8'),
    message: redactMessage(msg, secrets),
  };
  if (c.id !== undefined) rec.id = c.id;
  const path = direction === 'out' ? framePath(msg) : undefined;
  if (path) rec.path = path;
  if (c.kind === 'request' && c.id !== undefined) pairer.request(direction, c.id, c.method!, at, path);
  if (c.method) rec.method = c.method;
  if ((c.kind === 'response' || c.kind === 'error') && c.id !== undefined) {
    const req = pairer.response(direction, c.id, at);
    if (req) {
      rec.method = req.method;
      rec.durationMs = req.durationMs;
      if (req.path) rec.path = req.path;
    }
  }
  return rec;
}

/** One JSON object per line, newline-terminated (empty string for no records). */
export function toNdjson(records: readonly TraceRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Reads NDJSON back (blank lines skipped); a bad line is an error naming its line number. */
export function parseNdjson(text: string): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as TraceRecord);
    } catch (err) {
      throw new Error(`line ${i + 1} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

export interface TraceFilter {
  method?: string;
  direction?: TraceDirection;
}

/** Records matching a method substring (case-insensitive) and/or a direction. */
export function filterRecords(records: readonly TraceRecord[], f: TraceFilter): TraceRecord[] {
  const m = f.method?.toLowerCase();
  return records.filter(
    (r) => (!f.direction || r.direction === f.direction) && (!m || (r.method ?? '').toLowerCase().includes(m)),
  );
}
