/**
 * The Claude Code IDE server from start to stop: started as `mcpHost.ideServer.enabled` says and
 * announced to integrated terminals (`CLAUDE_CODE_SSE_PORT`, `ENABLE_IDE_INTEGRATION`). index.ts
 * runs `apply` and `stop` one at a time.
 */
import * as vscode from 'vscode';
import { IdeServer, type EditorPort } from '../../core/ide/index.js';
import type { ChannelLogger } from '../ports/logger.js';
import { errorMessage } from '../../core/errors.js';
import { readSettings } from '../settings.js';

export interface IdeServerLifecycle {
  /** Starts or stops the server as the setting (and a dispose) say now. */
  apply(): Promise<void>;
  stop(): Promise<void>;
  /** The server while it runs. */
  server(): IdeServer | undefined;
}

/** `changed` fires when the server starts or stops and when its agents come and go. */
export function ideServerLifecycle(
  context: vscode.ExtensionContext,
  log: ChannelLogger,
  editor: EditorPort,
  changed: vscode.EventEmitter<void>,
  isDisposed: () => boolean,
): IdeServerLifecycle {
  const env = context.environmentVariableCollection;
  let server: IdeServer | undefined;
  let serverSub: { dispose(): void } | undefined;
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
    const want = enabled() && !isDisposed();
    if (!want) return stop();
    if (server) return;
    try {
      const s = await IdeServer.start({
        editor,
        logger: log,
        ideName: vscode.env.appName,
        serverInfo: { name: 'mcp-host-ide', version: String(context.extension.packageJSON.version ?? '0.0.0') },
      });
      // Turned off (or disposed) while it started.
      if (isDisposed() || !enabled()) {
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

  return { apply, stop, server: () => server };
}
