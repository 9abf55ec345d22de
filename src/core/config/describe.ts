/**
 * What a server runs or connects to, in one line, secrets redacted: the one wording used by
 * connect errors, the approval prompt and `mcp-host doctor`.
 */
import { redactArgs, redactUrl } from '../redact.js';
import type { ServerConfig } from './types.js';

/** `command args…` (secret-looking argument values redacted), the URL (credentials and keys redacted) or `in-process <id>`. */
export function describeTarget(config: ServerConfig): string {
  switch (config.type) {
    case 'stdio':
      return [config.command, ...redactArgs(config.args)].join(' ');
    case 'inprocess':
      return `in-process ${config.id}`;
    default:
      return redactUrl(config.url);
  }
}
