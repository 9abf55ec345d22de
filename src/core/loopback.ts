/**
 * Who may use a server the host opens on this machine for other processes: the IDE WebSocket
 * server (ide/) and the gateway (gateway/http.ts). Since CVE-2025-52882 (an IDE extension's
 * WebSocket server that any web page could reach) the rule is: listen on 127.0.0.1 only, refuse
 * any request carrying a browser `Origin`, refuse a `Host` that is not loopback at our port (DNS
 * rebinding), and require a secret token compared in constant time. Each server only says where
 * its token travels (a custom header, a bearer token).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:net';

/** 256 bits from the CSPRNG, base64url (43 characters, safe in headers and JSON). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison that also hides the expected length: both sides are hashed to a fixed
 * size first, so a wrong-length guess takes the same path as a wrong-content one.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = sha256(given);
  // Every request of an agent is checked against the same token: its digest is made once.
  if (lastExpected?.token !== expected) lastExpected = { token: expected, digest: sha256(expected) };
  return timingSafeEqual(a, lastExpected.digest);
}

let lastExpected: { token: string; digest: Buffer } | undefined;

function sha256(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

export type AccessVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Decides a request before anything else sees it. `port` is the listening port (for the Host
 * check); `given` is the token the request carried, wherever the server expects it.
 */
export function checkLoopbackAccess(
  req: IncomingMessage,
  given: string | undefined,
  expected: string,
  port: number,
): AccessVerdict {
  // Browsers send Origin on cross-origin fetches and on every WebSocket handshake; agents (Node,
  // Python, Go processes) do not.
  if (req.headers.origin !== undefined) return { ok: false, status: 403, reason: 'browser origin refused' };
  const host = (req.headers.host ?? '').toLowerCase();
  if (![`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host))
    return { ok: false, status: 403, reason: 'host not loopback' };
  if (given === undefined || given.length === 0) return { ok: false, status: 401, reason: 'missing token' };
  if (!tokensEqual(given, expected)) return { ok: false, status: 401, reason: 'wrong token' };
  return { ok: true };
}

/** Listens on 127.0.0.1 at a port the OS picks; resolves with that port. */
export async function listenOnLoopback(http: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A loopback port free right now, for a program that must be told its port up front (debugpy, test peers). */
export async function freeLoopbackPort(): Promise<number> {
  const s = createServer();
  const port = await listenOnLoopback(s);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
