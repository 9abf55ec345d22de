/**
 * Wires the gateway into the editor: follows `mcpHost.gateway.enabled` / `.exclude` live, writes
 * the discovery file, gives integrated terminals `MCP_HOST_GATEWAY_URL` / `MCP_HOST_GATEWAY_TOKEN`,
 * shows a status bar entry, registers "Connect an Agent…" and, where VS Code has the API, offers
 * the gateway to VS Code's own chat.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import type { Logger } from '../../core/ports.js';
import type { CommandTable } from '../command-table.js';
import {
  discoveryDir,
  discoveryFile,
  Gateway,
  GatewayHttpServer,
  removeDiscoverySync,
  writeDiscovery,
  GatewayViews,
  type AgentSignIn,
  type GatewayBridge,
  type GatewayFeatures,
} from '../../core/gateway/index.js';
import { CONNECT_AGENT_COMMAND, connectAgent } from './connect-agent.js';
import { registerGatewayProvider } from './provider.js';
import { gatewayToolsVersion } from './tools-version.js';
import { gatewayStatusItem } from './status-item.js';
import { readGatewayViewSettingsLive, readSettings } from '../settings.js';

// For src/extension/lazy/gateway.ts: the features are made in this bundle, beside the SDK's server.
export { gatewayFeatures } from '../../core/gateway/index.js';

export interface GatewayIntegration extends vscode.Disposable {
  /** URL and token while the gateway runs. */
  endpoint(): { url: string; token: string } | undefined;
  /** Agents connected now. */
  agentCount(): number;
  /** Something the gateway filters by changed (a tool switched off or on): re-list and tell agents. */
  refresh(): void;
  /** Its entries of the command table (registered with every other command in main.ts). */
  commands: Pick<CommandTable, typeof CONNECT_AGENT_COMMAND>;
  /** Settles once the first start attempt is over (so config loading can recognise our own URL). */
  ready: Promise<void>;
  /** Fires when the gateway starts or stops and when an agent connects or leaves. */
  onDidChange: vscode.Event<void>;
}

export interface GatewayDeps {
  context: vscode.ExtensionContext;
  log: Logger;
  host: McpHost;
  bridge: GatewayBridge;
  /** The per-tool disable hook; everything is enabled without it. */
  isToolEnabled?: (server: string, tool: string) => boolean;
  /** Resource subscriptions and completions for agents (core gateway/features.ts). */
  features?: GatewayFeatures;
  /** Sign-in for an agent's `<server>__authenticate` (core gateway/auth-tool.ts). */
  signIn?: AgentSignIn;
}

const URL_VAR = 'MCP_HOST_GATEWAY_URL';
const TOKEN_VAR = 'MCP_HOST_GATEWAY_TOKEN';

function settings(): { enabled: boolean; exclude: string[] } {
  return readSettings().gateway;
}

export function startGatewayIntegration(deps: GatewayDeps): GatewayIntegration {
  const { context, log, host, bridge } = deps;
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const changed = new vscode.EventEmitter<void>();
  const env = context.environmentVariableCollection;
  env.persistent = false;
  const dir = discoveryDir();
  let running: { gateway: Gateway; http: GatewayHttpServer; file: string; sub: { dispose(): void } } | undefined;
  let disposed = false;
  let queue: Promise<void> = Promise.resolve();
  const onExit = (): void => {
    if (running) removeDiscoverySync(running.file);
  };
  process.once('exit', onExit);

  async function stop(): Promise<void> {
    const r = running;
    if (!r) return;
    running = undefined;
    env.delete(URL_VAR);
    env.delete(TOKEN_VAR);
    r.sub.dispose();
    removeDiscoverySync(r.file);
    changed.fire();
    await r.http.dispose();
    await r.gateway.dispose();
  }

  async function apply(): Promise<void> {
    const s = settings();
    if (!s.enabled || disposed) return stop();
    if (running) {
      running.gateway.refresh();
      return;
    }
    const gateway = new Gateway({
      host,
      logger: log,
      bridge,
      serverInfo: { name: 'mcp-host-gateway', version },
      // Read live, so editing the exclude list takes effect with the next refresh.
      isServerExposed: (name) => !settings().exclude.includes(name),
      ...(deps.isToolEnabled ? { isToolEnabled: deps.isToolEnabled } : {}),
      ...(deps.features ? { features: deps.features } : {}),
      ...(deps.signIn ? { signIn: deps.signIn } : {}),
      // Read live: a settings change reaches agents with the refresh that follows it.
      views: new GatewayViews({
        toolSearch: () => readGatewayViewSettingsLive().toolSearch,
        profiles: () => readGatewayViewSettingsLive().profiles,
      }),
      resultLimit: () => readGatewayViewSettingsLive().resultLimit,
    });
    try {
      const http = await GatewayHttpServer.start({ gateway, logger: log });
      const folders = (vscode.workspace.workspaceFolders ?? [])
        .filter((f) => f.uri.scheme === 'file')
        .map((f) => f.uri.fsPath);
      const file = await writeDiscovery(dir, {
        url: http.url,
        token: http.token,
        pid: process.pid,
        workspaceFolders: folders,
      }).catch((err: unknown) => {
        log.warn(
          `gateway: could not write the discovery file in ${dir}: ${err instanceof Error ? err.message : String(err)}`,
        );
        return discoveryFile(dir, process.pid);
      });
      if (disposed || !settings().enabled) {
        removeDiscoverySync(file);
        await http.dispose();
        await gateway.dispose();
        return;
      }
      running = { gateway, http, file, sub: http.onDidChangeLive(() => changed.fire()) };
      env.replace(URL_VAR, http.url);
      env.replace(TOKEN_VAR, http.token);
      log.info(`gateway: agents reach this editor's servers at ${http.url} (discovery file ${file})`);
      changed.fire();
    } catch (err) {
      await gateway.dispose();
      log.error(`gateway could not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const schedule = (): Promise<void> => (queue = queue.then(apply, apply));
  const endpoint = (): { url: string; token: string } | undefined =>
    running ? { url: running.http.url, token: running.http.token } : undefined;
  // Agents with a connection open: one that checked in and left without ending its session is not counted.
  const agentCount = (): number => running?.http.liveSessionCount() ?? 0;

  const subs: vscode.Disposable[] = [
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.gateway')) void schedule();
    }),
    gatewayStatusItem({ endpoint, agentCount, onDidChange: changed.event }),
  ];
  // The definition's version follows what the gateway offers, announced at most once a second
  // (servers connecting one by one at start-up would otherwise each make VS Code re-read it).
  const toolsChanged = new vscode.EventEmitter<void>();
  let toolsTimer: NodeJS.Timeout | undefined;
  subs.push(
    toolsChanged,
    { dispose: () => clearTimeout(toolsTimer) },
    host.onDidChangeServer(() => {
      clearTimeout(toolsTimer);
      toolsTimer = setTimeout(() => toolsChanged.fire(), 1000);
    }),
  );
  const provider = registerGatewayProvider(
    { endpoint, onDidChange: changed.event },
    () =>
      gatewayToolsVersion(version, host.servers(), {
        isServerExposed: (name) => !settings().exclude.includes(name),
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
  const ready = schedule();

  return {
    commands: {
      [CONNECT_AGENT_COMMAND]: () => connectAgent(endpoint(), Object.keys(readGatewayViewSettingsLive().profiles)),
    },
    refresh: () => running?.gateway.refresh(),
    endpoint,
    agentCount,
    ready,
    onDidChange: changed.event,
    dispose() {
      disposed = true;
      process.off('exit', onExit);
      queue = queue.then(stop, stop).finally(() => subs.forEach((s) => s.dispose()));
    },
  };
}
