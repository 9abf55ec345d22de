import * as vscode from 'vscode';
import type { ServerChangeEvent } from '../core/host-api.js';
import { ConnectionStates } from '../core/connection/index.js';
import type { Logger } from '../core/ports.js';
import { redactKnownValues } from '../core/redact.js';
import { channelLogger } from './ports/logger.js';
import { heldReason, type HeldReason } from '../core/config/index.js';

const HELD_LOG: Record<HeldReason, string> = {
  config: 'disabled in its config ("disabled": true)',
  policy: 'blocked by the managed policy',
  untrusted: 'the workspace is not trusted',
  'not-approved': 'waiting for your approval of this workspace server',
  'user-disabled': 'disabled in this workspace',
  manual: 'mcpHost.autoStart is off; start it from the tree or the palette',
  editor: 'VS Code runs it itself (mcpHost.sharedServers is "vscode")',
};

/**
 * One LogOutputChannel per server (`MCP Host: <name>`), created on first use: stderr lines and
 * connection events from the core, state changes from the host's events. Every line is redacted.
 */
export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();
  private readonly lastState = new Map<string, string>();

  constructor(
    private readonly redact: (text: string) => string,
    /** Literal values to hide in this server's lines (its env and header values). */
    private readonly secretsOf: (server: string) => string[] = () => [],
  ) {}

  channel(server: string): vscode.LogOutputChannel {
    let ch = this.channels.get(server);
    if (!ch) {
      ch = vscode.window.createOutputChannel(`MCP Host: ${server}`, { log: true });
      this.channels.set(server, ch);
    }
    return ch;
  }

  /** HostOptions.serverLogger. */
  logger(server: string): Logger {
    return channelLogger(this.channel(server), (text) => {
      return this.redact(redactKnownValues(text, this.secretsOf(server)));
    });
  }

  show(server: string): void {
    this.channel(server).show(true);
  }

  /** Logs each state transition once (the host also fires for list refreshes). */
  onServerChange(e: ServerChangeEvent): void {
    if (!e.snapshot) {
      if (this.channels.has(e.name)) this.channel(e.name).info('removed from the configuration; stopped');
      this.lastState.delete(e.name);
      return;
    }
    const st = e.snapshot.state;
    const label = ConnectionStates.label(st);
    const detail =
      st.kind === 'failed'
        ? `: ${st.error.message}${st.error.hint ? ` (${st.error.hint})` : ''}`
        : st.kind === 'needs-auth'
          ? `: ${st.message}`
          : st.kind === 'connected'
            ? ` to ${st.serverInfo.name} ${st.serverInfo.version} in ${Math.round(st.connectMs)} ms (${e.snapshot.tools.length} tools)`
            : st.kind === 'disabled'
              ? ` (${st.reason}${st.message ? `: ${st.message}` : ''})`
              : '';
    const held = heldReason(e.snapshot.definition);
    const line = held ? `not started: ${HELD_LOG[held]}` : `${label}${detail}`;
    if (this.lastState.get(e.name) === line) return;
    this.lastState.set(e.name, line);
    const log = this.logger(e.name);
    if (st.kind === 'failed') log.error(line);
    else if (st.kind === 'needs-auth') log.warn(line);
    else log.info(line);
  }

  dispose(): void {
    for (const ch of this.channels.values()) ch.dispose();
    this.channels.clear();
  }
}
