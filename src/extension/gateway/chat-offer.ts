/**
 * Offers the gateway to VS Code's own chat (provider.ts) with a definition version that follows
 * the tools the gateway exposes.
 */
import * as vscode from 'vscode';
import { registerGatewayProvider } from './provider.js';
import { gatewayToolsVersion } from './tools-version.js';
import { gatewaySettings, type GatewayDeps } from './lifecycle.js';

/** What to dispose with the integration; nothing is offered on an editor without the API (logged). */
export function offerToChat(
  deps: GatewayDeps,
  version: string,
  endpoint: () => { url: string; token: string } | undefined,
  onDidChange: vscode.Event<void>,
): vscode.Disposable[] {
  const { host, log } = deps;
  // The definition's version follows what the gateway offers, announced at most once a second
  // (servers connecting one by one at start-up would otherwise each make VS Code re-read it).
  const toolsChanged = new vscode.EventEmitter<void>();
  let toolsTimer: NodeJS.Timeout | undefined;
  const subs: vscode.Disposable[] = [
    toolsChanged,
    { dispose: () => clearTimeout(toolsTimer) },
    host.onDidChangeServer(() => {
      clearTimeout(toolsTimer);
      toolsTimer = setTimeout(() => toolsChanged.fire(), 1000);
    }),
  ];
  const provider = registerGatewayProvider(
    { endpoint, onDidChange },
    () =>
      gatewayToolsVersion(version, host.servers(), {
        isServerExposed: (name) => !gatewaySettings().exclude.includes(name),
        ...(deps.isToolEnabled ? { isToolEnabled: deps.isToolEnabled } : {}),
      }),
    toolsChanged.event,
  );
  if (provider) {
    subs.push(provider);
    log.info('gateway: offered to VS Code’s MCP support (chat) through the server definition provider API');
  } else {
    log.info(
      `gateway: VS Code ${vscode.version} has no MCP server definition provider API (1.101+); chat is not offered the gateway`,
    );
  }
  return subs;
}
