import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../core/host.js';
import { disabledServersFor, toolFilterFor, type DisabledServers, type ToolFilter } from '../core/tools/index.js';
import type { McpHost } from '../core/host.js';
import { configFilesToWatch, readConfig, type LoadOptions } from '../core/config/load.js';
import { ServerApprovals } from '../core/config/approvals.js';
import { redactString, secretValuesOf } from '../core/redact.js';
import { createApi, type McpHostApi } from './exported-api.js';
import { reportCommandError, serverCommands } from './server-commands.js';
import { registerCommandTable, type CommandTable } from './command-table.js';
import { configToolCommands } from './registry/commands.js';
import { ConfigController } from './config/controller.js';
import { ServerLogs } from './logs.js';
import { clearInputsCommand, inputResolver } from './ports/inputs.js';
import { clearListCacheCommand } from './list-cache-command.js';
import { ListCache } from '../core/connection/list-cache.js';
import { channelLogger } from './ports/logger.js';
import { systemClock, type Logger } from '../core/ports.js';
import { mementoStore } from './ports/memento.js';
import { StatusBar } from './status/bar.js';
import { Notifier } from './status/notify.js';
import { bindToolCheckboxes } from './tree/tool-checkboxes.js';
import { ServerTreeProvider } from './tree/provider.js';
import { TrustPrompter } from './config/approval-prompt.js';
import { startIdeIntegration } from './ide/index.js';
import { createEditorAuth } from './auth/index.js';
import { registerCallCommands, VsCodeElicitationPort } from './calls/index.js';
import { CallHistory } from '../core/calls/call-history.js';
import { startDevMode, tapLogger, type DevMode } from './dev/index.js';
import { registerInspector } from './inspector/commands.js';
import { ServerRoots } from './inspector/roots.js';
import { createTraceHub, registerTrace } from './trace/index.js';
import { errorMessage } from '../core/errors.js';
import { editorFeatureOptions, featureCommands, logLevelFor } from './features/index.js';
import { editorSampling, settingsConsentStore } from './features/sampling.js';
import { applyLogLevel } from '../core/features/logging.js';
import { GatewayBridge, gatewayFeatures } from '../core/gateway/index.js';
import { startGatewayIntegration } from './gateway/index.js';
import { SharedServers } from './vscode-mcp/shared-servers.js';
import { readSettings } from './settings.js';
import { sandboxUi } from './sandbox.js';

let host: McpHost | undefined;

/** Reads the editor settings the loader needs; the dynamic servers come from the exported API. */
function loadOptions(dynamic: ReadonlyMap<string, unknown>, gatewayEnv: Record<string, string>): LoadOptions {
  const s = readSettings();
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    userServers: s.servers,
    userSandbox: s.sandbox,
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

/**
 * Entry point. Returns at once: config is read and servers connect after activation, so a slow or
 * broken server never delays the editor. Returns the API other extensions use.
 */
export function activate(context: vscode.ExtensionContext): McpHostApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('MCP Host', { log: true });
  context.subscriptions.push(log);
  const redact = (t: string): string => redactString(t);
  const logger = channelLogger(log, redact);
  // The controller and dev mode are created after the host they observe; the log callbacks reach them through this.
  const createdLater: { controller?: ConfigController; dev?: DevMode } = {};
  // Server logs also hide the literal values of the server's own env and headers (stderr can echo them).
  const logs = new ServerLogs(redact, (name) => {
    const def = createdLater.controller?.definition(name);
    return def ? secretValuesOf(def.config) : [];
  });
  // Workspace folders plus roots the user added per server (an Inspector feature).
  const roots = new ServerRoots(context.workspaceState);
  const trace = createTraceHub();
  const settings = readSettings();

  const auth = createEditorAuth(context, logger);
  context.subscriptions.push(auth);
  // One port for the host and the call commands, so two servers' questions never interleave on screen.
  const elicitation = new VsCodeElicitationPort(logger);
  // Questions from servers during an agent's call go back to that agent; all others to the dialogs
  // (sampling: the consent prompt, then a language model or the user's own reply).
  // "Always allow" is keyed per definition: the store looks up what a name stands for right now.
  const consent = settingsConsentStore((name) => host?.servers().find((s) => s.name === name)?.definition);
  const bridge = new GatewayBridge(elicitation, editorSampling(consent));
  // Per workspace: the tree shows each server's last lists at once after a restart.
  const listCache = new ListCache(mementoStore(context.workspaceState), systemClock);
  const h = createHost({
    logger,
    listCache,
    // Dev mode reads the server's stderr for the debugger's port.
    serverLogger: (name) => tapLogger(logs.logger(name), (line) => createdLater.dev?.debug.onServerLine(name, line)),
    blobDir: join(context.globalStorageUri.fsPath, 'blobs'),
    concurrency: settings.concurrency,
    timeouts: settings.timeouts,
    roots,
    elicitation: bridge,
    authProvider: (def) => auth.providerFor(def),
    // The bridge is the one sampling and server-log entry point: the agent in flight, else the editor.
    features: bridge.featureOptions(editorFeatureOptions()),
    clientInfo: { name: 'mcp-host-vscode', version: String(context.extension.packageJSON.version ?? '0.0.0') },
    wrapTransport: (def, t) => trace.attach(def, t),
    // Tools with an MCP App open it in a panel (src/extension/apps).
    apps: true,
    // Protocol eras already found (core/connection/era.ts): a known server connects without a probe.
    eraStore: mementoStore(context.globalState),
  });
  host = h;
  // Concurrency and timeouts apply when changed, without a reload: pools resize, the next attempt and call use the new values.
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('mcpHost.concurrency') && !e.affectsConfiguration('mcpHost.timeouts')) return;
      const now = readSettings();
      h.updateSettings({ concurrency: now.concurrency, timeouts: now.timeouts });
      logger.info(
        `settings applied: concurrency ${JSON.stringify(now.concurrency)}, timeouts ${JSON.stringify(now.timeouts)}`,
      );
    }),
  );
  const dev = startDevMode(h, (name) => logs.logger(name));
  createdLater.dev = dev;
  const traceUi = registerTrace(h, trace);
  context.subscriptions.push(dev, trace, ...traceUi.disposables);

  // One per-tool choice for the palette, the tree, the exported API and what the gateway offers agents.
  const toolFilter = workspaceToolFilter();
  const gateway = startGatewayIntegration({
    context,
    log: logger,
    host: h,
    bridge,
    features: gatewayFeatures(h),
    isToolEnabled: (server, tool) => toolFilter.isEnabled(server, tool),
    // An agent's `<server>__authenticate`: the same sign-in as the Authenticate command, then a reconnect.
    signIn: {
      start: (server) => {
        const def = h.server(server)?.definition;
        if (!def) return Promise.reject(new Error(`no server "${server}"`));
        return Promise.resolve({
          done: auth
            .authenticate(def)
            .then(() => auth.clearNeedsAuth(def))
            .then(() => h.restart(server)),
        });
      },
    },
  });
  context.subscriptions.push(toolFilter.onDidChange(() => gateway.refresh()));
  context.subscriptions.push(gateway);
  const gatewayEnv = (): Record<string, string> => {
    const ep = gateway.endpoint();
    return ep ? { MCP_HOST_GATEWAY_URL: ep.url, MCP_HOST_GATEWAY_TOKEN: ep.token } : {};
  };

  const approvals = new ServerApprovals(mementoStore(context.workspaceState));
  const inputs = inputResolver(context.secrets, context.workspaceState);
  const shared = new SharedServers(context.workspaceState, logger);
  const controller = new ConfigController({
    // Definitions pass through dev mode (watchers, debugger flags) on their way to the host.
    host: dev.host,
    log: logger,
    read: async (dynamic) => {
      await gateway.ready;
      const opts = loadOptions(dynamic, gatewayEnv());
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
    approvals: new TrustPrompter(approvals, redact),
    disabled: workspaceDisabledServers(context.workspaceState, logger),
    leftToEditor: (def) => shared.leftToEditor(def),
  });
  shared.attach(controller);
  context.subscriptions.push(shared);

  createdLater.controller = controller;
  // A new gateway URL (turned off and on) changes which entries are our own.
  let lastUrl = gateway.endpoint()?.url;
  context.subscriptions.push(
    gateway.onDidChange(() => {
      const url = gateway.endpoint()?.url;
      if (url === lastUrl) return;
      lastUrl = url;
      controller.scheduleReload();
    }),
  );
  const tree = new ServerTreeProvider(controller, redact, (name) => dev.watcher.lastChange(name), toolFilter);
  context.subscriptions.push(dev.watcher.onDidRestart((e) => tree.refresh(e.server)));
  const sandbox = sandboxUi(controller, (name) => tree.refresh(name));
  context.subscriptions.push(sandbox);
  const view = vscode.window.createTreeView('mcpHost.servers', {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  context.subscriptions.push(toolFilter, bindToolCheckboxes(view, toolFilter, logger));
  const status = new StatusBar(controller);
  const notifier = new Notifier();
  const updateViewMessage = (): void => {
    const untrusted = controller.servers().filter((s) => controller.gate(s.name) === 'untrusted').length;
    view.message = untrusted
      ? `This workspace is not trusted, so the ${untrusted === 1 ? 'server' : `${untrusted} servers`} it defines will not start until you trust it.`
      : undefined;
  };
  context.subscriptions.push(
    roots,
    logs,
    controller,
    tree,
    view,
    status,
    h.onDidChangeServer((e) => {
      logs.onServerChange(e);
      notifier.onServer(e.name, e.snapshot);
    }),
    controller.onDidChange((name) => {
      if (name !== undefined) return;
      void vscode.commands.executeCommand('setContext', 'mcpHost.hasServers', controller.servers().length > 0);
      notifier.onProblems(controller.problems());
      updateViewMessage();
    }),
  );

  // Connections start after activate has returned.
  const ready = new Promise<void>((resolve) => {
    setImmediate(() => {
      const t0 = performance.now();
      controller
        .reload()
        .then(async () => {
          resolve();
          logger.info(
            `configuration read in ${(performance.now() - t0).toFixed(1)} ms: ${controller.servers().length} servers, ${controller.problems().length} problems`,
          );
          await h.whenSettled();
          const states = controller.servers().map((s) => `${s.name}=${controller.gate(s.name) ?? s.state.kind}`);
          logger.info(
            `all servers settled ${(performance.now() - started).toFixed(0)} ms after activation (${states.join(', ') || 'none'})`,
          );
        })
        .catch((e: unknown) => {
          resolve();
          logger.error(`starting servers failed: ${errorMessage(e)}`);
        });
    });
  });

  const history = new CallHistory(20);
  const callCommands = registerCallCommands(context, h, logger, elicitation, history, toolFilter);
  const inspector = registerInspector({
    host: h,
    hub: trace,
    roots,
    history,
    storageDir: context.globalStorageUri.fsPath,
    definition: (name) => controller.definition(name),
    lastDevChange: (name) => dev.watcher.lastChange(name),
  });
  context.subscriptions.push(...inspector.disposables);
  const ide = startIdeIntegration(context, logger);
  const features = featureCommands(h, logger);
  context.subscriptions.push(
    ide,
    ...features.disposables,
    // A changed log level reaches connected servers at once (ping interval: at the next connect).
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('mcpHost.logging')) return;
      for (const s of h.servers()) {
        if (s.state.kind !== 'connected') continue;
        void h
          .withClient(s.name, 'logging/setLevel', (c) => applyLogLevel(c, logLevelFor(s.name), logs.logger(s.name)))
          .catch(() => undefined);
      }
    }),
  );
  const table: CommandTable = {
    ...serverCommands({ host: h, controller, logs, mainLog: logger, auth }),
    ...configToolCommands({ controller, secrets: context.secrets, log: logger }),
    ...callCommands,
    ...ide.commands,
    ...gateway.commands,
    ...clearInputsCommand(inputs, () => controller.reload()),
    ...clearListCacheCommand(listCache),
    ...features.commands,
    ...traceUi.commands,
    ...inspector.commands,
    ...sandbox.commands,
  };
  context.subscriptions.push(...registerCommandTable(table, (id, e) => reportCommandError(logger, id, e)));
  const api = createApi(h, controller, ready, toolFilter);
  context.subscriptions.push(api);
  logger.info(`activated in ${(performance.now() - started).toFixed(1)} ms`);
  return api;
}

/**
 * Tool choices live in a per-workspace file the CLI reads too (core/tools/workspace-state.ts),
 * keyed by the .code-workspace file or the first folder.
 */
function workspaceToolFilter(): ToolFilter {
  return toolFilterFor(workspaceKey());
}

function workspaceKey(): string {
  const ws =
    vscode.workspace.workspaceFile?.scheme === 'file'
      ? vscode.workspace.workspaceFile.fsPath
      : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return ws ?? '(no folder)';
}

/** Where the editor kept disabled servers before they moved to the file the CLI reads. */
const OLD_DISABLED_KEY = 'mcpHost.disabledServers';

/**
 * The workspace's disabled servers, in the same per-workspace file as the tool choices. Names an
 * older version kept in VS Code's workspace storage move there once; the old entry is cleared only
 * after the file was written, so a failed write loses nothing.
 */
function workspaceDisabledServers(memento: vscode.Memento, logger: Logger): DisabledServers {
  const disabled = disabledServersFor(workspaceKey());
  const old = memento.get<string[]>(OLD_DISABLED_KEY);
  if (Array.isArray(old)) {
    void disabled
      .adopt(old)
      .then(() => memento.update(OLD_DISABLED_KEY, undefined))
      .then(
        () => old.length && logger.info(`moved ${old.length} disabled server(s) to the workspace file the CLI reads`),
        (e: unknown) =>
          logger.warn(`could not move the disabled servers: ${e instanceof Error ? e.message : String(e)}`),
      );
  }
  return disabled;
}

/** Stops every server and waits until their process trees are gone. */
export async function deactivate(): Promise<void> {
  const h = host;
  host = undefined;
  await h?.dispose();
}
