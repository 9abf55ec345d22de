/**
 * A status bar entry while the IDE server runs: how many agents are connected, the port in the
 * tooltip. Kept here so the IDE integration is complete on its own; the main status bar may show
 * the same through `IdeIntegration.port()` / `clientCount()` instead.
 */
import * as vscode from 'vscode';

export function ideStatusItem(state: {
  port(): number | undefined;
  geminiPort?(): number | undefined;
  clientCount(): number;
  onDidChange: vscode.Event<void>;
}): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpHost.ideServer', vscode.StatusBarAlignment.Right, 90);
  item.name = 'MCP Host IDE Server';
  item.command = 'mcpHost.showLogs';
  const update = (): void => {
    const port = state.port();
    const geminiPort = state.geminiPort?.();
    if (port === undefined && geminiPort === undefined) {
      item.hide();
      return;
    }
    const n = state.clientCount();
    const where = [
      port === undefined ? undefined : `Claude Code on 127.0.0.1:${port}`,
      geminiPort === undefined ? undefined : `Gemini CLI on 127.0.0.1:${geminiPort}`,
    ].filter((w) => w !== undefined);
    item.text = `$(broadcast) ${n}`;
    item.tooltip = `MCP Host IDE server (${where.join(', ')}): ${n === 1 ? '1 agent' : `${n} agents`} connected. Agents started in an integrated terminal find it by themselves.`;
    item.accessibilityInformation = { label: `IDE server: ${n === 1 ? '1 agent' : `${n} agents`} connected` };
    item.show();
  };
  const sub = state.onDidChange(update);
  update();
  return vscode.Disposable.from(sub, item);
}
