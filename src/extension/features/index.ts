/**
 * The editor's faces of the protocol features (src/core/features): settings → feature options,
 * the running-tasks list and sampling consent revocation (server details: src/extension/inspector).
 */
import * as vscode from 'vscode';
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { FeatureOptions, RunningTask } from '../../core/features/index.js';
import type { Logger } from '../../core/ports.js';
import type { CommandTable } from '../command-table.js';
import { consentEntryName, LOGGING_LEVELS } from '../../core/features/index.js';
import type { McpHost } from '../../core/host.js';
import { settingsConsentStore } from './sampling.js';
import { registerTasksView } from './tasks-view.js';
import { readSettings } from '../settings.js';

/** `mcpHost.logging.level` (default for every server) and `mcpHost.logging.serverLevels` (per server). */
export function logLevelFor(server: string): LoggingLevel | undefined {
  const { logging } = readSettings();
  const level = logging.serverLevels[server] ?? logging.level;
  return (LOGGING_LEVELS as readonly string[]).includes(level) ? (level as LoggingLevel) : undefined;
}

export function editorFeatureOptions(): FeatureOptions {
  const seconds = readSettings().pingIntervalSeconds;
  return {
    logLevel: logLevelFor,
    pingIntervalMs: seconds > 0 ? seconds * 1000 : 0,
  };
}

function serverArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { server?: unknown }).server === 'string')
    return (arg as { server: string }).server;
  return undefined;
}

async function pick(host: McpHost, arg: unknown, title: string): Promise<string | undefined> {
  const given = serverArg(arg);
  if (given) return given;
  const names = host.servers().map((s) => s.name);
  if (!names.length) return undefined;
  return vscode.window.showQuickPick(names, { title: `MCP Host: ${title}`, placeHolder: 'Server' });
}

export type FeatureCommandId = 'mcpHost.revokeSamplingConsent' | 'mcpHost.showRunningTasks' | 'mcpHost.cancelTask';

/** The features' commands for the command table, and what must be disposed with the extension. */
export function featureCommands(
  host: McpHost,
  log: Logger,
): { commands: Pick<CommandTable, FeatureCommandId>; disposables: vscode.Disposable[] } {
  const tasks = registerTasksView(host);
  const showRunningTasks = async (): Promise<void> => {
    const running = host.features.tasks.list();
    if (!running.length) {
      void vscode.window.showInformationMessage('No MCP task is running.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      running.map((t) => ({
        label: `${t.server} / ${t.tool}`,
        description: `${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`,
        detail: `task ${t.taskId}, running for ${Math.round((Date.now() - t.startedAt) / 1000)} s (pick to cancel)`,
        taskId: t.taskId,
      })),
      { title: 'MCP Host: Running Tasks', placeHolder: 'Pick a task to cancel it (tasks/cancel)' },
    );
    if (!picked) return;
    const ok = await vscode.window.showWarningMessage(`Cancel ${picked.label}?`, { modal: true }, 'Cancel Task');
    if (ok !== 'Cancel Task') return;
    if (!(await host.features.tasks.cancel(picked.taskId)))
      void vscode.window.showInformationMessage('That task has already finished.');
  };
  return {
    disposables: [...tasks],
    commands: {
      'mcpHost.revokeSamplingConsent': async (arg?: unknown) => {
        const name = await pick(host, arg, 'Revoke Sampling Consent');
        if (!name) return;
        const had = readSettings().samplingAlwaysAllow.some((e) => consentEntryName(e) === name);
        await settingsConsentStore(() => undefined).revoke(name);
        log.info(`sampling consent for ${name} revoked`);
        void vscode.window.showInformationMessage(
          had
            ? `${name} will ask again before its next sampling request.`
            : `${name} had no standing sampling consent; it asks every time.`,
        );
      },
      'mcpHost.showRunningTasks': showRunningTasks,
      'mcpHost.cancelTask': async (arg?: unknown) => {
        const t = arg as RunningTask | undefined;
        if (!t?.taskId) return showRunningTasks();
        log.info(`cancelling task ${t.taskId} (${t.server}/${t.tool})`);
        if (!(await host.features.tasks.cancel(t.taskId)))
          void vscode.window.showInformationMessage('That task has already finished.');
      },
    },
  };
}
