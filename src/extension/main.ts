import * as vscode from 'vscode';

/**
 * Entry point. Must return at once: every connection is started in the background after
 * activation, so a slow or broken server never delays the editor.
 */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('MCP Host', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(
    vscode.commands.registerCommand('mcpHost.refresh', () => {
      log.info('refresh requested');
    }),
    vscode.commands.registerCommand('mcpHost.showLogs', () => log.show(true)),
  );
  log.info(`activated in ${(performance.now() - started).toFixed(1)} ms`);
}

export function deactivate(): void {}
