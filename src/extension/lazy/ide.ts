/**
 * The IDE servers (Claude Code's and Gemini CLI's, src/extension/ide) from dist/ide.js: loaded after
 * activation when either is on, else when one is turned on or one of their commands runs.
 */
import * as vscode from 'vscode';
import type { IdeIntegration } from '../ide/index.js';
import type { ChannelLogger } from '../ports/logger.js';
import type { CommandTable } from '../command-table.js';
import { readSettings } from '../settings.js';
import { LazyFeature } from './feature.js';

const IDS = ['mcpHost.sendSelectionToAgent', 'mcpHost.ide.acceptDiff', 'mcpHost.ide.rejectDiff'] as const;

export function lazyIdeIntegration(
  context: vscode.ExtensionContext,
  log: ChannelLogger,
): vscode.Disposable & { commands: Pick<CommandTable, (typeof IDS)[number]> } {
  const ide = new LazyFeature<IdeIntegration>('the IDE servers', log, async () =>
    (await import('../ide/index.js')).startIdeIntegration(context, log),
  );
  // As the integration does when it loads: a port from a previous session is wrong after a restart.
  context.environmentVariableCollection.persistent = false;
  const wanted = (): boolean => {
    const s = readSettings();
    return s.ideServerEnabled || s.ideServerGeminiEnabled;
  };
  ide.startIf(wanted);
  // Once loaded, the integration follows the settings itself.
  const follow = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('mcpHost.ideServer') && wanted()) void ide.get();
  });
  return {
    commands: ide.commands(IDS, (i) => i.commands),
    dispose: () => {
      follow.dispose();
      ide.dispose();
    },
  };
}
