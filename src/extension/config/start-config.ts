/**
 * The config pipeline (core server registry) with the editor's ports: what the loader reads from
 * the settings and the workspace, approvals, inputs, the servers left to VS Code's own MCP.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { hostPrivateDirs } from '../../core/user-dir.js';
import type { McpHost } from '../../core/host.js';
import type { Logger } from '../../core/ports.js';
import { configFilesToWatch, readConfig, type LoadOptions } from '../../core/config/index.js';
import type { GatewayIntegration } from '../gateway/index.js';
import { inputResolver, type EditorInputResolver } from '../ports/inputs.js';
import { SharedServers } from '../vscode-mcp/shared-servers.js';
import { readSettings } from '../settings.js';
import { workspaceApprovals, workspaceDisabledServers } from '../workspace-files.js';
import { TrustPrompter } from './approval-prompt.js';
import { ConfigController } from './controller.js';

/** Reads the editor settings the loader needs; the dynamic servers come from the exported API. */
function loadOptions(dynamic: ReadonlyMap<string, unknown>, gatewayEnv: Record<string, string>): LoadOptions {
  const s = readSettings();
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    userServers: s.servers,
    userSandbox: s.sandbox,
    userTeamGateway: s.teamGateway,
    managedPath: s.managedConfigPath,
    discovery: {
      enabled: s.discovery.enabled,
      sources: s.discovery.sources,
      homeDir: homedir(),
      platform: process.platform,
    },
    dynamic: [...dynamic].map(([name, config]) => ({ name, config, owner: 'api' })),
    // The gateway's variables resolve here too, so an entry written for agents is recognised as ours.
    env: { ...process.env, ...gatewayEnv },
  };
}

/** The config pipeline (core server registry) with the editor's ports; reloads when the gateway's URL changes. */
export function startConfig(
  context: vscode.ExtensionContext,
  p: {
    logger: Logger;
    redact: (t: string) => string;
    devHost: McpHost;
    gateway: GatewayIntegration;
    gatewayEnv: () => Record<string, string>;
  },
): {
  controller: ConfigController;
  inputs: EditorInputResolver;
  shared: SharedServers;
  disposables: vscode.Disposable[];
} {
  const { gateway } = p;
  const approvals = workspaceApprovals(context.workspaceState, p.logger);
  const inputs = inputResolver(context.secrets, context.workspaceState);
  const shared = new SharedServers(context.workspaceState, p.logger);
  const controller = new ConfigController({
    // Definitions pass through dev mode (watchers, debugger flags) on their way to the host.
    host: p.devHost,
    log: p.logger,
    read: async (dynamic) => {
      await gateway.ready;
      const opts = loadOptions(dynamic, p.gatewayEnv());
      const read = await readConfig(opts);
      return { ...read, files: [...new Set([...(read.files ?? []), ...configFilesToWatch(opts)])] };
    },
    // MCP Host never connects to its own gateway (a project .mcp.json written for agents): admission holds such entries back.
    ownGateways: () => {
      const own = gateway.endpoint();
      return own ? [own.url] : [];
    },
    inputs,
    trusted: () => vscode.workspace.isTrusted,
    approvals: new TrustPrompter(approvals, p.redact),
    disabled: workspaceDisabledServers(context.workspaceState, p.logger),
    sharedServers: shared,
    // The editor's globalStorage (VS Code's state.vscdb, with SecretStorage, is beside our folder).
    privateDirs: hostPrivateDirs(process.env, [dirname(context.globalStorageUri.fsPath)]),
  });
  shared.attach(controller);
  // A new gateway URL (turned off and on) changes which entries are our own.
  let lastUrl = gateway.endpoint()?.url;
  const urlChanged = gateway.onDidChange(() => {
    const url = gateway.endpoint()?.url;
    if (url === lastUrl) return;
    lastUrl = url;
    controller.scheduleReload();
  });
  return { controller, inputs, shared, disposables: [shared, urlChanged, controller] };
}
