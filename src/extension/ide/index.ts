/**
 * Wires the IDE WebSocket server into the editor: follows `mcpHost.ideServer.enabled` live,
 * tells integrated terminals where the server is, and registers "Send Selection to Agent".
 */
import * as vscode from 'vscode';
import { IdeServer } from '../../core/ide/index.js';
import { displayPath } from './convert.js';
import { ACCEPT_COMMAND, DiffManager, REJECT_COMMAND } from './diffs.js';
import { startGeminiIde } from './gemini.js';
import { ideStatusItem } from './status-item.js';
import { VsCodeEditorPort } from './vscode-editor-port.js';
import type { ChannelLogger } from '../ports/logger.js';
import { errorMessage } from '../../core/errors.js';
import type { CommandTable } from '../command-table.js';
import { readSettings } from '../settings.js';

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

  let server: IdeServer | undefined;
  let serverSub: { dispose(): void } | undefined;
  let disposed = false;
  // Start/stop requests run one after another, so flipping the setting quickly cannot leave two servers.
  let queue: Promise<void> = Promise.resolve();

  const enabled = (): boolean => readSettings().ideServerEnabled;

  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = undefined;
    serverSub?.dispose();
    // Only our variables: the gateway shares this collection.
    env.delete('CLAUDE_CODE_SSE_PORT');
    env.delete('ENABLE_IDE_INTEGRATION');
    changed.fire();
    await s.dispose();
  }

  async function apply(): Promise<void> {
    const want = enabled() && !disposed;
    if (!want) return stop();
    if (server) return;
    try {
      const s = await IdeServer.start({
        editor,
        logger: log,
        ideName: vscode.env.appName,
        serverInfo: { name: 'mcp-host-ide', version: String(context.extension.packageJSON.version ?? '0.0.0') },
      });
      if (disposed || !enabled()) {
        await s.dispose();
        return;
      }
      server = s;
      serverSub = s.onDidChange(() => changed.fire());
      env.replace('CLAUDE_CODE_SSE_PORT', String(s.port));
      env.replace('ENABLE_IDE_INTEGRATION', 'true');
      changed.fire();
    } catch (err) {
      log.error(`IDE server could not start: ${errorMessage(err)}`);
    }
  }

  const schedule = (): void => {
    queue = queue.then(apply, apply);
  };

  const subs: vscode.Disposable[] = [
    diffs,
    changed,
    gemini.onDidChange(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.ideServer')) schedule();
    }),
  ];

  function sendSelection(): void {
    const active = vscode.window.activeTextEditor;
    if (!active) {
      void vscode.window.showInformationMessage('Open a file to send its selection to the agent.');
      return;
    }
    if (!server) {
      void vscode.window.showWarningMessage(
        'The IDE server is off. Turn on "mcpHost.ideServer.enabled" to share selections with coding agents.',
      );
      return;
    }
    const sel = active.selection;
    // A selection ending at column 0 of the next line is a whole-lines selection; do not count that line.
    const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
    const heard = server.notifyAtMention({
      filePath: displayPath(active.document.uri),
      ...(sel.isEmpty ? {} : { lineStart: sel.start.line, lineEnd: endLine }),
    });
    if (heard === 0 && gemini.clientCount() > 0) {
      void vscode.window.showInformationMessage(
        'Gemini CLI follows the active editor by itself: it already has this file and its selection.',
      );
    } else if (heard === 0) {
      void vscode.window.showInformationMessage(
        'No coding agent is connected. Start one (e.g. `claude`) in an integrated terminal; it finds this editor on its own.',
      );
    }
  }

  const port = (): number | undefined => server?.port;
  const clientCount = (): number => (server?.clientCount() ?? 0) + gemini.clientCount();
  subs.push(ideStatusItem({ port, geminiPort: () => gemini.port(), clientCount, onDidChange: changed.event }));
  schedule();

  return {
    port,
    clientCount,
    onDidChange: changed.event,
    commands: {
      [SEND_SELECTION_COMMAND]: () => sendSelection(),
      [ACCEPT_COMMAND]: (uri?: unknown) => diffs.accept(uri),
      [REJECT_COMMAND]: (uri?: unknown) => diffs.reject(uri),
    },
    dispose() {
      disposed = true;
      // Lock-file removal is asynchronous; the server also removes it synchronously at process exit.
      gemini.dispose();
      queue = queue.then(stop, stop).finally(() => subs.forEach((s) => s.dispose()));
    },
  };
}
