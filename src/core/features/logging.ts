/**
 * Server logging (`notifications/message`, `logging/setLevel`): each message goes to the server's
 * own log at the matching level, with its logger name, so a server's logs sit beside its stderr.
 */
import type { Client, LoggingLevel } from '@modelcontextprotocol/client';
import { stripMisleadingUnicode } from '../capabilities/sanitize.js';
import type { Logger } from '../ports.js';
import type { ServerLogMessage } from './types.js';

export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The host Logger method for a syslog level (notice → info, critical and above → error). */
export function loggerLevelFor(level: LoggingLevel): keyof Logger {
  switch (level) {
    case 'debug':
      return 'debug';
    case 'info':
    case 'notice':
      return 'info';
    case 'warning':
      return 'warn';
    default:
      return 'error';
  }
}

const PLAIN = new Set<LoggingLevel>(['debug', 'info', 'warning', 'error']);

/** One line: `[logger] text` (data that is not a string is shown as JSON), capped so a flood cannot fill memory. */
export function formatLogMessage(m: ServerLogMessage): string {
  const text = typeof m.data === 'string' ? m.data : JSON.stringify(m.data);
  const capped = text.length > 8000 ? `${text.slice(0, 8000)}… (${text.length} characters)` : text;
  // The four levels the log shows itself need no label; notice, critical, alert, emergency do.
  const line = `${PLAIN.has(m.level) ? '' : `${m.level}: `}${capped}`;
  return stripMisleadingUnicode(m.logger ? `[${m.logger}] ${line}` : line);
}

export function installLogging(client: Client, log: Logger, onMessage?: (m: ServerLogMessage) => void): void {
  client.setNotificationHandler('notifications/message', (n) => {
    const m: ServerLogMessage = {
      level: n.params.level,
      data: n.params.data,
      ...(n.params.logger !== undefined ? { logger: n.params.logger } : {}),
    };
    log[loggerLevelFor(m.level)](formatLogMessage(m));
    onMessage?.(m);
  });
}

/**
 * A client that sends the level in each request's `_meta` (connection/host-client.ts `HostClient`),
 * told apart by the field it reads: features sit below the connection and must not import it.
 */
function carriesLogLevel(client: Client): client is Client & { logLevel: LoggingLevel | undefined } {
  return 'logLevel' in client;
}

/** Sends `logging/setLevel` when the server has the logging capability; a refusal is only logged. */
export async function applyLogLevel(client: Client, level: LoggingLevel | undefined, log: Logger): Promise<void> {
  if (!level || !client.getServerCapabilities()?.logging) return;
  // 2026-07-28 has no logging/setLevel: the level rides in each request's _meta instead.
  if (client.getProtocolEra() === 'modern') {
    if (carriesLogLevel(client)) client.logLevel = level;
    log.debug(`log level ${level} sent with each request`);
    return;
  }
  try {
    await client.setLoggingLevel(level);
    log.debug(`log level set to ${level}`);
  } catch (err) {
    log.warn(`logging/setLevel ${level} refused: ${err instanceof Error ? err.message : String(err)}`);
  }
}
