/** A status bar entry while the gateway runs: agents connected; the URL in the tooltip; click to connect one. */
import * as vscode from 'vscode';
import { CONNECT_AGENT_COMMAND } from './connect-agent.js';

export function gatewayStatusItem(state: {
  endpoint(): { url: string } | undefined;
  agentCount(): number;
  onDidChange: vscode.Event<void>;
}): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('mcpHost.gateway', vscode.StatusBarAlignment.Right, 89);
  item.name = 'MCP Host Gateway';
  item.command = CONNECT_AGENT_COMMAND;
  const update = (): void => {
    const ep = state.endpoint();
    if (!ep) {
      item.hide();
      return;
    }
    const n = state.agentCount();
    const agents = n === 1 ? '1 agent' : `${n} agents`;
    item.text = `$(hubot) ${n}`;
    item.tooltip = `MCP Host gateway at ${ep.url}: ${agents} connected. Click to connect an agent.`;
    item.accessibilityInformation = { label: `MCP Host gateway: ${agents} connected` };
    item.show();
  };
  const sub = state.onDidChange(update);
  update();
  return vscode.Disposable.from(sub, item);
}
