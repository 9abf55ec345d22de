import * as vscode from 'vscode';
import type { ConfigController } from '../config/controller.js';
import { importServers } from '../config/import-servers.js';
import { removeServer } from '../config/remove-server.js';
import { browseRegistry } from './browse.js';

export interface ConfigToolDeps {
  controller: ConfigController;
  secrets: vscode.SecretStorage;
  log: vscode.LogOutputChannel;
}

function serverName(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

/** Browse Servers…, Remove Server and Import Servers…; each failure is logged and shown, never thrown at the editor. */
export function registerConfigToolCommands(deps: ConfigToolDeps): vscode.Disposable[] {
  const reg = (id: string, what: string, fn: (arg?: unknown) => Promise<void>): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        await fn(arg);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        deps.log.error(`${what}: ${msg}`);
        void vscode.window.showErrorMessage(`${what}: ${msg}`);
      }
    });
  return [
    reg('mcpHost.browseRegistry', 'Browse Servers', () => browseRegistry(deps)),
    reg('mcpHost.removeServer', 'Remove Server', (arg) => removeServer(deps.controller, deps.secrets, serverName(arg))),
    reg('mcpHost.importServers', 'Import Servers', () => importServers(deps.controller)),
  ];
}
