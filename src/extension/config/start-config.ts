/**
 * The config pipeline (core server registry, made by the host assembly: core/host-assembly.ts)
 * with the editor's ports: what the loader reads from the settings and the workspace, approvals,
 * inputs, the servers left to VS Code's own MCP; and the controller over it.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { hostPrivateDirs } from '../../core/user-dir.js';
import type { HostAssembly, RegistryPorts } from '../../core/host-assembly.js';
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

/** The ports of the core server registry in the editor, and what the commands need of them. */
export interface EditorRegistryPorts {
  registry: RegistryPorts;
  inputs: EditorInputResolver;
  shared: SharedServers;
  disposables: vscode.Disposable[];
}

/** The core registry's ports with the editor's: settings, folders, trust, approvals, inputs, file watchers. */
export function editorRegistryPorts(
  context: vscode.ExtensionContext,
  p: {
    logger: Logger;
    redact: (t: string) => string;
    gateway: GatewayIntegration;
    gatewayEnv: () => Record<string, string>;
  },
): EditorRegistryPorts {
  const { gateway } = p;
  const approvals = workspaceApprovals(context.workspaceState, p.logger);
  const inputs = inputResolver(context.secrets, context.workspaceState);
  const shared = new SharedServers(context.workspaceState, p.logger);
  const registry: RegistryPorts = {
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
    autoStart: () => readSettings().autoStart,
    leftToEditor: (def) => shared.leftToEditor(def),
    readByEditor: (def) => shared.readByEditor(def),
    // The editor's globalStorage (VS Code's state.vscdb, with SecretStorage, is beside our folder).
    privateDirs: hostPrivateDirs(process.env, [dirname(context.globalStorageUri.fsPath)]),
    watchFiles,
  };
  return { registry, inputs, shared, disposables: [shared] };
}

/** The config controller on the assembly's registry; reloads when the gateway's URL changes. */
export function startConfig(
  core: HostAssembly,
  p: { logger: Logger; gateway: GatewayIntegration; shared: SharedServers },
): { controller: ConfigController; disposables: vscode.Disposable[] } {
  const { gateway } = p;
  const controller = new ConfigController({ core, log: p.logger });
  p.shared.attach(controller);
  // A new gateway URL (turned off and on) changes which entries are our own.
  let lastUrl = gateway.endpoint()?.url;
  const urlChanged = gateway.onDidChange(() => {
    const url = gateway.endpoint()?.url;
    if (url === lastUrl) return;
    lastUrl = url;
    controller.scheduleReload();
  });
  return { controller, disposables: [urlChanged, controller] };
}

/**
 * Every file the loader read or looked for (managed file, other apps' configs, env files) gets a
 * watcher of its own; the controller's glob watcher covers the folders' `.mcp.json` / `.vscode/mcp.json`.
 */
function watchFiles(files: readonly string[], onChange: () => void): vscode.Disposable {
  const watchers = files.map((f) => {
    const uri = vscode.Uri.file(f);
    const w = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop() ?? ''),
    );
    w.onDidChange(onChange);
    w.onDidCreate(onChange);
    w.onDidDelete(onChange);
    return w;
  });
  return { dispose: () => watchers.forEach((w) => w.dispose()) };
}
