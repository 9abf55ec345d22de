import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports.js';

/**
 * The core's Logger over a LogOutputChannel. `redact` runs on every line because core callers
 * are asked to redact but a server's stderr can carry anything.
 */
/** The one logger of the editor layer: every line redacted; `show` reveals the channel. */
export interface ChannelLogger extends Logger {
  show(preserveFocus?: boolean): void;
}

export function channelLogger(channel: vscode.LogOutputChannel, redact: (text: string) => string): ChannelLogger {
  return {
    show: (preserveFocus) => channel.show(preserveFocus),
    trace: (m) => channel.trace(redact(m)),
    debug: (m) => channel.debug(redact(m)),
    info: (m) => channel.info(redact(m)),
    warn: (m) => channel.warn(redact(m)),
    error: (m) => channel.error(redact(m)),
  };
}
