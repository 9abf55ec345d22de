import * as vscode from 'vscode';
import { join } from 'node:path';
import { createHost } from '../core/host.js';
import { VERSION } from '../core/version.js';
import type { ToolFilter } from '../core/tools/index.js';
import { workspaceToolFilter } from './workspace-files.js';
import type { McpHost } from '../core/host.js';
import { redactString, secretValuesOf } from '../core/redact.js';
import { createApi, type McpHostApi } from './exported-api.js';
import { reportCommandError, serverCommands } from './server-commands.js';
import { registerCommandTable, type CommandTable } from './command-table.js';
import { configToolCommands } from './registry/commands.js';
import type { ConfigController } from './config/controller.js';
import { startConfig } from './config/start-config.js';
import { ServerLogs } from './logs.js';
import { clearInputsCommand } from './ports/inputs.js';
import { clearListCacheCommand } from './list-cache-command.js';
import { ListCache } from '../core/connection/index.js';
import { channelLogger, type ChannelLogger } from './ports/logger.js';
import { systemClock, type Logger } from '../core/ports.js';
import { mementoStore } from './ports/memento.js';
import { StatusBar } from './status/bar.js';
import { Notifier } from './status/notify.js';
import { bindToolCheckboxes } from './tree/tool-checkboxes.js';
import { ServerTreeProvider } from './tree/provider.js';
import { lazyIdeIntegration } from './lazy/ide.js';
import { createEditorAuth, type EditorAuth } from './auth/index.js';
import { registerCallCommands, VsCodeElicitationPort } from './calls/index.js';
import { CallHistory } from '../core/calls/index.js';
import { startDevMode, tapLogger, type DevMode } from './dev/index.js';
import { lazyWorkbench } from './lazy/workbench.js';
import { ServerRoots } from './inspector/roots.js';
import { createTraceHub, registerTrace } from './trace/index.js';
import type { TraceHub } from '../core/trace/index.js';
import { Emitter } from '../core/events.js';
import { ServerDefinitions } from './server-definitions.js';
import { errorMessage } from '../core/errors.js';
import { editorFeatureOptions, featureCommands, logLevelFor } from './features/index.js';
import { editorSampling, settingsConsentStore } from './features/sampling.js';
import { applyLogLevel } from '../core/features/index.js';
import { GatewayBridge } from '../core/gateway/bridge.js';
import type { GatewayIntegration } from './gateway/index.js';
import { lazyGatewayIntegration } from './lazy/gateway.js';
import { readSettings } from './settings.js';
import { sandboxUi } from './sandbox.js';

let host: McpHost | undefined;

/** What a step made that VS Code must dispose: `activate` registers it, in one place. */
interface Made {
  readonly disposables: vscode.Disposable[];
}

/** The main output channel and the redaction every log line passes. */
function openMainLog(): Made & { logger: ChannelLogger; redact: (t: string) => string } {
  const log = vscode.window.createOutputChannel('MCP Host', { log: true });
  const redact = (t: string): string => redactString(t);
  return { logger: channelLogger(log, redact), redact, disposables: [log] };
}

/**
 * Per-server log channels. Each line also hides the literal values of the server's own env and
 * headers (stderr can echo them), and is handed to `lines` (dev mode reads the debugger's port there).
 */
function openServerLogs(
  redact: (t: string) => string,
  definitions: ServerDefinitions,
): Made & { logs: ServerLogs; lines: Emitter<{ server: string; line: string }> } {
  const logs = new ServerLogs(redact, (name) => {
    const def = definitions.get(name);
    return def ? secretValuesOf(def.config) : [];
  });
  const lines = new Emitter<{ server: string; line: string }>();
  return { logs, lines, disposables: [logs, lines] };
}

/**
 * One port for the host and the call commands, so two servers' questions never interleave on
 * screen. Questions from servers during an agent's call go back to that agent; all others to the
 * dialogs (sampling: the consent prompt, then a language model or the user's own reply).
 */
function questionPorts(
  logger: ChannelLogger,
  definitions: ServerDefinitions,
): { elicitation: VsCodeElicitationPort; bridge: GatewayBridge } {
  const elicitation = new VsCodeElicitationPort(logger);
  // "Always allow" is keyed per definition: the store looks up what a name stands for right now.
  const consent = settingsConsentStore((name) => definitions.get(name));
  return { elicitation, bridge: new GatewayBridge(elicitation, editorSampling(consent)) };
}

interface HostParts {
  logger: Logger;
  logs: ServerLogs;
  lines: Emitter<{ server: string; line: string }>;
  roots: ServerRoots;
  trace: TraceHub;
  auth: EditorAuth;
  bridge: GatewayBridge;
  listCache: ListCache;
}

/** The core host with the editor's ports; concurrency and timeouts follow the settings without a reload. */
function startHost(context: vscode.ExtensionContext, p: HostParts): Made & { host: McpHost } {
  const settings = readSettings();
  const h = createHost({
    logger: p.logger,
    listCache: p.listCache,
    serverLogger: (name) => tapLogger(p.logs.logger(name), (line) => p.lines.fire({ server: name, line })),
    blobDir: join(context.globalStorageUri.fsPath, 'blobs'),
    concurrency: settings.concurrency,
    timeouts: settings.timeouts,
    startServers: settings.startServers,
    roots: p.roots,
    elicitation: p.bridge,
    authProvider: (def) => p.auth.providerFor(def),
    // The bridge is the one sampling and server-log entry point: the agent in flight, else the editor.
    features: p.bridge.featureOptions(editorFeatureOptions()),
    clientInfo: { name: 'mcp-host-vscode', version: String(context.extension.packageJSON.version ?? '0.0.0') },
    wrapTransport: (def, t) => p.trace.attach(def, t),
    // Tools with an MCP App open it in a panel (src/extension/apps).
    apps: true,
    // Protocol eras already found (core/connection/era.ts): a known server connects without a probe.
    eraStore: mementoStore(context.globalState),
  });
  // Pools resize, the next attempt and call use the new values.
  const settingsChanged = vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('mcpHost.concurrency') && !e.affectsConfiguration('mcpHost.timeouts')) return;
    const now = readSettings();
    h.updateSettings({ concurrency: now.concurrency, timeouts: now.timeouts });
    p.logger.info(
      `settings applied: concurrency ${JSON.stringify(now.concurrency)}, timeouts ${JSON.stringify(now.timeouts)}`,
    );
  });
  return { host: h, disposables: [settingsChanged] };
}

/** Dev mode (watch restarts, debugger sessions); it reads the servers' log lines for the debugger's port. */
function startDev(
  h: McpHost,
  logs: ServerLogs,
  lines: Emitter<{ server: string; line: string }>,
): Made & { dev: DevMode } {
  const dev = startDevMode(h, (name) => logs.logger(name));
  const tap = lines.event(({ server, line }) => dev.debug.onServerLine(server, line));
  return { dev, disposables: [dev, tap] };
}

/** The gateway for agents; its URL and token are variables config files may use. */
function startGateway(
  context: vscode.ExtensionContext,
  p: { logger: Logger; host: McpHost; bridge: GatewayBridge; auth: EditorAuth; toolFilter: ToolFilter },
): Made & { gateway: GatewayIntegration; gatewayEnv: () => Record<string, string> } {
  const h = p.host;
  const gateway = lazyGatewayIntegration({
    context,
    log: p.logger,
    host: h,
    bridge: p.bridge,
    isToolEnabled: (server, tool) => p.toolFilter.isEnabled(server, tool),
    // An agent's `<server>__authenticate`: the same sign-in as the Authenticate command, then a reconnect.
    signIn: {
      start: (server) => {
        const def = h.server(server)?.definition;
        if (!def) return Promise.reject(new Error(`no server "${server}"`));
        return Promise.resolve({
          done: p.auth
            .authenticate(def)
            .then(() => p.auth.clearNeedsAuth(def))
            .then(() => h.restart(server)),
        });
      },
    },
  });
  const gatewayEnv = (): Record<string, string> => {
    const ep = gateway.endpoint();
    return ep ? { MCP_HOST_GATEWAY_URL: ep.url, MCP_HOST_GATEWAY_TOKEN: ep.token } : {};
  };
  return { gateway, gatewayEnv, disposables: [p.toolFilter.onDidChange(() => gateway.refresh()), gateway] };
}

/** The sidebar tree, its tool checkboxes, the sandbox shield, the status bar and the notifications. */
function showServers(p: {
  logger: Logger;
  redact: (t: string) => string;
  host: McpHost;
  controller: ConfigController;
  dev: DevMode;
  logs: ServerLogs;
  toolFilter: ToolFilter;
}): Made & { sandbox: ReturnType<typeof sandboxUi> } {
  const { controller, dev, toolFilter } = p;
  const tree = new ServerTreeProvider(controller, p.redact, (name) => dev.watcher.lastChange(name), toolFilter);
  const restarted = dev.watcher.onDidRestart((e) => tree.refresh(e.server));
  const sandbox = sandboxUi(controller, (name) => tree.refresh(name));
  const view = vscode.window.createTreeView('mcpHost.servers', {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  const checkboxes = bindToolCheckboxes(view, toolFilter, p.logger);
  const expansion = [
    view.onDidExpandElement((e) => tree.setExpanded(e.element.id, true)),
    view.onDidCollapseElement((e) => tree.setExpanded(e.element.id, false)),
  ];
  const status = new StatusBar(controller);
  const notifier = new Notifier();
  const updateViewMessage = (): void => {
    const untrusted = controller.servers().filter((s) => controller.gate(s.name) === 'untrusted').length;
    view.message = untrusted
      ? `This workspace is not trusted, so the ${untrusted === 1 ? 'server' : `${untrusted} servers`} it defines will not start until you trust it.`
      : undefined;
  };
  return {
    sandbox,
    disposables: [
      restarted,
      sandbox,
      toolFilter,
      checkboxes,
      ...expansion,
      tree,
      view,
      status,
      p.host.onDidChangeServer((e) => {
        p.logs.onServerChange(e);
        notifier.onServer(e.name, e.snapshot);
      }),
      controller.onDidChange((name) => {
        if (name !== undefined) return;
        void vscode.commands.executeCommand('setContext', 'mcpHost.hasServers', controller.servers().length > 0);
        notifier.onProblems(controller.problems());
        updateViewMessage();
      }),
    ],
  };
}

/** Reads the config and starts the servers once `activate` has returned; resolves when the config is read. */
function startServers(controller: ConfigController, h: McpHost, logger: Logger, started: number): Promise<void> {
  return new Promise<void>((resolve) => {
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
}

/** A changed log level reaches connected servers at once (ping interval: at the next connect). */
function followLogLevel(h: McpHost, logs: ServerLogs): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('mcpHost.logging')) return;
    for (const s of h.servers()) {
      if (s.state.kind !== 'connected') continue;
      void h
        .withClient(s.name, 'logging/setLevel', (c) => applyLogLevel(c, logLevelFor(s.name), logs.logger(s.name)))
        .catch(() => undefined);
    }
  });
}

/**
 * Entry point. Returns at once: config is read and servers connect after activation, so a slow or
 * broken server never delays the editor. Returns the API other extensions use.
 */
export function activate(context: vscode.ExtensionContext): McpHostApi {
  const started = performance.now();
  // The one place disposables are registered: what each step made, and the few objects made here.
  const own = (...disposables: vscode.Disposable[]): void => void context.subscriptions.push(...disposables);
  const keep = <T extends Made>(made: T): T => {
    own(...made.disposables);
    return made;
  };
  const { logger, redact } = keep(openMainLog());
  const definitions = new ServerDefinitions();
  const { logs, lines } = keep(openServerLogs(redact, definitions));
  // Workspace folders plus roots the user added per server (an Inspector feature).
  const roots = new ServerRoots(context.workspaceState);
  const trace = createTraceHub();
  const auth = createEditorAuth(context, logger);
  const { elicitation, bridge } = questionPorts(logger, definitions);
  // Per workspace: the tree shows each server's last lists at once after a restart.
  const listCache = new ListCache(mementoStore(context.workspaceState), systemClock);
  own(auth, roots);
  const { host: h } = keep(startHost(context, { logger, logs, lines, roots, trace, auth, bridge, listCache }));
  host = h;
  own(definitions.follow(h.onDidChangeServer));
  const { dev } = keep(startDev(h, logs, lines));
  const traceUi = registerTrace(h, trace);
  own(trace, ...traceUi.disposables);
  // One per-tool choice for the palette, the tree, the exported API and what the gateway offers agents.
  const toolFilter = workspaceToolFilter();
  const { gateway, gatewayEnv } = keep(startGateway(context, { logger, host: h, bridge, auth, toolFilter }));
  const { controller, inputs, shared } = keep(startConfig(context, { logger, redact, devHost: dev.host, gateway, gatewayEnv }));
  const { sandbox } = keep(showServers({ logger, redact, host: h, controller, dev, logs, toolFilter }));
  const ready = startServers(controller, h, logger, started);

  const history = new CallHistory(20);
  const callCommands = registerCallCommands(context, h, logger, elicitation, history, toolFilter);
  const inspector = lazyWorkbench(
    {
      host: h,
      hub: trace,
      roots,
      history,
      storageDir: context.globalStorageUri.fsPath,
      definition: (name) => controller.definition(name),
      lastDevChange: (name) => dev.watcher.lastChange(name),
    },
    logger,
  );
  const ide = lazyIdeIntegration(context, logger);
  const features = featureCommands(h, logger);
  own(...inspector.disposables, ide, ...features.disposables, followLogLevel(h, logs));
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
    ...shared.commands,
  };
  own(...registerCommandTable(table, (id, e) => reportCommandError(logger, id, e)));
  const api = createApi(h, controller, ready, toolFilter);
  own(api);
  logger.info(`MCP Host ${VERSION} activated in ${(performance.now() - started).toFixed(1)} ms`);
  return api;
}

/** Stops every server and waits until their process trees are gone. */
export async function deactivate(): Promise<void> {
  const h = host;
  host = undefined;
  await h?.dispose();
}
