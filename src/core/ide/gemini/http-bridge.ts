/**
 * Node's http server on one side, the SDK v2 web-standard transport (`Request` → `Response`) on
 * the other. The body is read here with a bound, so a peer cannot make us buffer without limit;
 * an event stream is written as it comes, and closing the socket cancels it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        // Discard the rest rather than reset the socket, so the 413 reaches the client; the answer closes the connection.
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge(`request body over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => reject(new Error('request closed before its end')));
  });
}

/** Hop-by-hop and framing headers belong to this connection, not to the request the SDK sees. */
const DROPPED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

export function toWebRequest(
  req: IncomingMessage,
  port: number,
  body: Buffer | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROPPED.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: body && body.length > 0 ? Uint8Array.from(body) : undefined,
    signal,
  });
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Event streams must reach the client before the first event (Gemini CLI waits for the headers).
  res.flushHeaders();
  const reader = response.body.getReader();
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  closed.then(
    () => reader.cancel().catch(() => undefined),
    () => undefined,
  );
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([new Promise<void>((r) => res.once('drain', r)), closed]);
      if (res.destroyed) break;
    }
  } catch {
    // The client went away mid-stream; nothing to answer.
  }
  res.end();
}
