/**
 * Gemini CLI's IDE server in the editor: follows `mcpHost.ideServer.geminiCli.enabled` live and
 * puts the variables Gemini CLI reads into every integrated terminal, so `gemini` started there
 * connects without setup. It serves the same editor port (and so the same diff UI) as the Claude
 * Code server.
 */
import * as vscode from 'vscode';
import { type EditorPort, GeminiIdeServer } from '../../core/ide/index.js';
import { errorMessage } from '../../core/connection/index.js';
import type { ChannelLogger } from '../ports/logger.js';
import { readSettings } from '../settings.js';

export interface GeminiIde extends vscode.Disposable {
  port(): number | undefined;
  clientCount(): number;
  onDidChange: vscode.Event<void>;
}

/** The server on this editor's port, named after this editor and this extension's version. */
function openServer(
  context: vscode.ExtensionContext,
  log: ChannelLogger,
  editor: EditorPort,
): Promise<GeminiIdeServer> {
  return GeminiIdeServer.start({
    editor,
    logger: log,
    ideInfo: { name: 'vscode', displayName: vscode.env.appName },
    serverInfo: { name: 'mcp-host-gemini-ide', version: String(context.extension.packageJSON.version ?? '0.0.0') },
  });
}

export function startGeminiIde(context: vscode.ExtensionContext, log: ChannelLogger, editor: EditorPort): GeminiIde {
  const env = context.environmentVariableCollection;
  const changed = new vscode.EventEmitter<void>();
  let server: GeminiIdeServer | undefined;
  let serverSub: { dispose(): void } | undefined;
  let setVars: string[] = [];
  let disposed = false;
  // Start/stop requests run one after another, so flipping the setting quickly cannot leave two servers.
  let queue: Promise<void> = Promise.resolve();
  const enabled = (): boolean => readSettings().ideServerGeminiEnabled && !disposed;

  function exportVars(s: GeminiIdeServer): void {
    const vars = s.terminalEnvironment();
    for (const [k, v] of Object.entries(vars)) env.replace(k, v);
    setVars = Object.keys(vars);
  }

  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = undefined;
    serverSub?.dispose();
    // Only ours: the Claude Code server and the gateway share this collection.
    for (const k of setVars) env.delete(k);
    setVars = [];
    changed.fire();
    await s.dispose();
  }

  async function apply(): Promise<void> {
    if (!enabled()) return stop();
    if (server) return;
    try {
      const s = await openServer(context, log, editor);
      if (!enabled()) {
        await s.dispose();
        return;
      }
      server = s;
      serverSub = s.onDidChange(() => changed.fire());
      exportVars(s);
      changed.fire();
    } catch (err) {
      log.error(`Gemini CLI IDE server could not start: ${errorMessage(err)}`);
    }
  }

  const schedule = (): void => {
    queue = queue.then(apply, apply);
  };
  const subs: vscode.Disposable[] = [
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.ideServer.geminiCli')) schedule();
    }),
    // GEMINI_CLI_IDE_WORKSPACE_PATH lists the folders; the server rewrites its discovery file itself.
    editor.onDidChangeWorkspaceFolders(() => {
      if (server) exportVars(server);
    }),
  ];
  schedule();

  return {
    port: () => server?.port,
    clientCount: () => server?.clientCount() ?? 0,
    onDidChange: changed.event,
    dispose() {
      disposed = true;
      // The discovery file is also removed synchronously at process exit.
      queue = queue.then(stop, stop).finally(() => subs.forEach((s) => s.dispose()));
    },
  };
}
