/**
 * Who may open the IDE socket. Since CVE-2025-52882 (an IDE extension's WebSocket server that
 * any web page could reach) the rule is: loopback only, a secret token in a header that browsers
 * cannot set on a WebSocket, and no browser `Origin` at all.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header the agent sends the lock file's `authToken` in. */
export const AUTH_HEADER = 'x-claude-code-ide-authorization';

/** 256 bits from the CSPRNG, base64url (43 characters, safe in headers and JSON). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison that also hides the expected length: both sides are hashed to a fixed
 * size first, so a wrong-length guess takes the same path as a wrong-content one.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export type UpgradeVerdict = { ok: true } | { ok: false; status: 400 | 401 | 403; reason: string };

/**
 * Decides an upgrade request before any WebSocket handshake happens. `port` is the listening
 * port, for the Host check that stops DNS-rebinding pages even if they somehow had the token.
 */
export function checkUpgrade(req: IncomingMessage, token: string, port: number): UpgradeVerdict {
  // Browsers always send Origin on a WebSocket handshake; the agent (a Node process) never does.
  if (req.headers.origin !== undefined) {
    return { ok: false, status: 403, reason: 'browser origin refused' };
  }
  const host = (req.headers.host ?? '').toLowerCase();
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowedHosts.includes(host)) {
    return { ok: false, status: 403, reason: 'host not loopback' };
  }
  const given = req.headers[AUTH_HEADER];
  if (typeof given !== 'string' || given.length === 0) {
    return { ok: false, status: 401, reason: 'missing token' };
  }
  if (!tokensEqual(given, token)) {
    return { ok: false, status: 401, reason: 'wrong token' };
  }
  return { ok: true };
}
