/**
 * Who may open the IDE socket: the loopback rules every server of the host follows (../loopback.ts),
 * with the token in a header that browsers cannot set on a WebSocket.
 */
import type { IncomingMessage } from 'node:http';
import { checkLoopbackAccess, type AccessVerdict } from '../loopback.js';

/** The header the agent sends the lock file's `authToken` in. */
export const AUTH_HEADER = 'x-claude-code-ide-authorization';

/** Decides an upgrade request before any WebSocket handshake happens. `port` is the listening port. */
export function checkUpgrade(req: IncomingMessage, token: string, port: number): AccessVerdict {
  const given = req.headers[AUTH_HEADER];
  return checkLoopbackAccess(req, typeof given === 'string' ? given : undefined, token, port);
}
