/**
 * The editor's gateway from start to stop: made from the settings, served over HTTP, announced in
 * the discovery file and to integrated terminals (`MCP_HOST_GATEWAY_URL` / `_TOKEN`), and undone
 * in the reverse order. index.ts runs `apply` and `stop` one at a time.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core/host.js';
import type { Logger } from '../../core/ports.js';
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
import { readGatewayViewSettingsLive, readSettings } from '../settings.js';

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

export interface RunningGateway {
  gateway: Gateway;
  http: GatewayHttpServer;
  file: string;
  sub: { dispose(): void };
}

export interface GatewayLifecycle {
  /** Starts, refreshes or stops the gateway as the settings (and a dispose) say now. */
  apply(): Promise<void>;
  stop(): Promise<void>;
  running(): RunningGateway | undefined;
}

const URL_VAR = 'MCP_HOST_GATEWAY_URL';
const TOKEN_VAR = 'MCP_HOST_GATEWAY_TOKEN';

export function gatewaySettings(): { enabled: boolean; exclude: string[] } {
  return readSettings().gateway;
}

/** `changed` fires when the gateway starts or stops and when its agents come and go. */
export function gatewayLifecycle(
  deps: GatewayDeps,
  version: string,
  changed: vscode.EventEmitter<void>,
  isDisposed: () => boolean,
): GatewayLifecycle {
  const { context, log } = deps;
  const env = context.environmentVariableCollection;
  env.persistent = false;
  const dir = discoveryDir();
  let running: RunningGateway | undefined;

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
    const s = gatewaySettings();
    if (!s.enabled || isDisposed()) return stop();
    if (running) {
      running.gateway.refresh();
      return;
    }
    const gateway = createGateway(deps, version);
    try {
      const http = await GatewayHttpServer.start({ gateway, logger: log });
      const file = await announce(http, dir, log);
      // Turned off (or disposed) while it started: undo it all.
      if (isDisposed() || !gatewaySettings().enabled) {
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

  return { apply, stop, running: () => running };
}

function createGateway(deps: GatewayDeps, version: string): Gateway {
  return new Gateway({
    host: deps.host,
    logger: deps.log,
    bridge: deps.bridge,
    serverInfo: { name: 'mcp-host-gateway', version },
    // Read live, so editing the exclude list takes effect with the next refresh.
    isServerExposed: (name) => !gatewaySettings().exclude.includes(name),
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
}

/**
 * Writes the discovery file agents find the gateway by; returns its path. A file that cannot be
 * written is logged, not fatal: terminals still get the variables.
 */
function announce(http: GatewayHttpServer, dir: string, log: Logger): Promise<string> {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  return writeDiscovery(dir, {
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
}
