import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports.js';

/**
 * The core's Logger over a LogOutputChannel. `redact` runs on every line because core callers
 * are asked to redact but a server's stderr can carry anything.
 */
export function channelLogger(channel: vscode.LogOutputChannel, redact: (text: string) => string = (t) => t): Logger {
  return {
    trace: (m) => channel.trace(redact(m)),
    debug: (m) => channel.debug(redact(m)),
    info: (m) => channel.info(redact(m)),
    warn: (m) => channel.warn(redact(m)),
    error: (m) => channel.error(redact(m)),
  };
}
