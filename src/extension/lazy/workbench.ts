/**
 * The workbench's Inspector commands (src/extension/inspector) from dist/workbench.js, loaded with
 * the first one run. Its two document schemes are registered here at activation, so a details or
 * response document VS Code restores after a reload still finds its provider (which loads the bundle).
 */
import * as vscode from 'vscode';
import type { InspectorCommandId, InspectorDeps, InspectorProviders } from '../inspector/commands.js';
import type { Logger } from '../../core/ports.js';
import type { CommandTable } from '../command-table.js';
import { LazyFeature } from './feature.js';
import { DETAILS_SCHEME, RESPONSE_SCHEME } from '../inspector/schemes.js';

export { DETAILS_SCHEME, RESPONSE_SCHEME } from '../inspector/schemes.js';

const IDS: readonly InspectorCommandId[] = [
  'mcpHost.showServerDetails',
  'mcpHost.pingServer',
  'mcpHost.sendRequest',
  'mcpHost.addRoot',
  'mcpHost.removeRoot',
  'mcpHost.exportCallHistory',
  'mcpHost.copyCallAsCommand',
  'mcpHost.copyServerAsClaudeAdd',
  'mcpHost.copyServerAsMcpJson',
];

interface Loaded extends vscode.Disposable {
  commands: Pick<CommandTable, InspectorCommandId>;
  providers: InspectorProviders;
}

export function lazyWorkbench(
  deps: InspectorDeps,
  log: Logger,
): { disposables: vscode.Disposable[]; commands: Pick<CommandTable, InspectorCommandId> } {
  const detailsChanged = new vscode.EventEmitter<vscode.Uri>();
  const workbench = new LazyFeature<Loaded>('the workbench', log, async () => {
    const made = (await import('../inspector/commands.js')).registerInspector(deps);
    const forward = made.providers[DETAILS_SCHEME].onDidChange?.((uri) => detailsChanged.fire(uri));
    return { ...made, dispose: () => [...made.disposables, ...(forward ? [forward] : [])].forEach((d) => d.dispose()) };
  });
  const provider = (scheme: keyof InspectorProviders): vscode.TextDocumentContentProvider => ({
    ...(scheme === DETAILS_SCHEME ? { onDidChange: detailsChanged.event } : {}),
    provideTextDocumentContent: async (uri, token) =>
      (await workbench.get())?.providers[scheme].provideTextDocumentContent(uri, token),
  });
  return {
    commands: workbench.commands(IDS, (w) => w.commands),
    disposables: [
      detailsChanged,
      vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, provider(DETAILS_SCHEME)),
      vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, provider(RESPONSE_SCHEME)),
      workbench,
    ],
  };
}
