/**
 * Wires the IDE WebSocket server into the editor: follows `mcpHost.ideServer.enabled` live,
 * tells integrated terminals where the server is, and registers "Send Selection to Agent".
 */
import * as vscode from 'vscode';
import { ACCEPT_COMMAND, DiffManager, REJECT_COMMAND } from './diffs.js';
import { startGeminiIde } from './gemini.js';
import { ideStatusItem } from './status-item.js';
import { VsCodeEditorPort } from './vscode-editor-port.js';
import type { ChannelLogger } from '../ports/logger.js';
import type { CommandTable } from '../command-table.js';
import { ideServerLifecycle } from './server-lifecycle.js';
import { sendSelection } from './send-selection.js';

export const SEND_SELECTION_COMMAND = 'mcpHost.sendSelectionToAgent' as const;

export interface IdeIntegration extends vscode.Disposable {
  /** The listening port, undefined while the server is off. */
  port(): number | undefined;
  /** How many agents are connected now, over both protocols. */
  clientCount(): number;
  /** Fires when the server starts or stops and when an agent connects or disconnects. */
  onDidChange: vscode.Event<void>;
  commands: Pick<CommandTable, 'mcpHost.sendSelectionToAgent' | 'mcpHost.ide.acceptDiff' | 'mcpHost.ide.rejectDiff'>;
}

export function startIdeIntegration(context: vscode.ExtensionContext, log: ChannelLogger): IdeIntegration {
  const changed = new vscode.EventEmitter<void>();
  const diffs = new DiffManager(log);
  const editor = new VsCodeEditorPort(diffs);
  const env = context.environmentVariableCollection;
  // A port from a previous session is wrong after a restart; never carry it over.
  env.persistent = false;
  env.description =
    'Lets coding agents started in this terminal (Claude Code, Gemini CLI) connect to MCP Host’s IDE servers and gateway.';
  const gemini = startGeminiIde(context, log, editor);

  let disposed = false;
  // Start/stop requests run one after another, so flipping the setting quickly cannot leave two servers.
  let queue: Promise<void> = Promise.resolve();
  const life = ideServerLifecycle(context, log, editor, changed, () => disposed);
  const schedule = (): void => {
    queue = queue.then(life.apply, life.apply);
  };

  const subs: vscode.Disposable[] = [
    diffs,
    changed,
    gemini.onDidChange(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.ideServer')) schedule();
    }),
  ];

  const port = (): number | undefined => life.server()?.port;
  const clientCount = (): number => (life.server()?.clientCount() ?? 0) + gemini.clientCount();
  subs.push(ideStatusItem({ port, geminiPort: () => gemini.port(), clientCount, onDidChange: changed.event }));
  schedule();

  return {
    port,
    clientCount,
    onDidChange: changed.event,
    commands: {
      [SEND_SELECTION_COMMAND]: () => sendSelection(life.server(), () => gemini.clientCount()),
      [ACCEPT_COMMAND]: (uri?: unknown) => diffs.accept(uri),
      [REJECT_COMMAND]: (uri?: unknown) => diffs.reject(uri),
    },
    dispose() {
      disposed = true;
      // Lock-file removal is asynchronous; the server also removes it synchronously at process exit.
      gemini.dispose();
      queue = queue.then(life.stop, life.stop).finally(() => subs.forEach((s) => s.dispose()));
    },
  };
}
