import type * as vscode from 'vscode';
import type { CommandTable } from '../command-table.js';
import type { ConfigController } from '../config/controller.js';
import { importServers } from '../config/import-servers.js';
import { removeServer } from '../config/remove-server.js';
import type { ChannelLogger } from '../ports/logger.js';

export interface ConfigToolDeps {
  controller: ConfigController;
  secrets: vscode.SecretStorage;
  log: ChannelLogger;
}

export type ConfigToolCommandId = 'mcpHost.browseRegistry' | 'mcpHost.removeServer' | 'mcpHost.importServers';

function serverName(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const s = (arg as { server?: unknown } | undefined)?.server;
  return typeof s === 'string' ? s : undefined;
}

/** Browse Servers…, Remove Server and Import Servers… for the command table (failures are reported there). */
export function configToolCommands(deps: ConfigToolDeps): Pick<CommandTable, ConfigToolCommandId> {
  return {
    // The registry browser loads on first use (dist/registry.js).
    'mcpHost.browseRegistry': async () => (await import('./browse.js')).browseRegistry(deps),
    'mcpHost.removeServer': (arg?: unknown) => removeServer(deps.controller, deps.secrets, serverName(arg)),
    'mcpHost.importServers': () => importServers(deps.controller),
  };
}
