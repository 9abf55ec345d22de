/**
 * Wires the gateway into the editor: follows `mcpHost.gateway.enabled` / `.exclude` live, writes
 * the discovery file, gives integrated terminals `MCP_HOST_GATEWAY_URL` / `MCP_HOST_GATEWAY_TOKEN`,
 * shows a status bar entry, registers "Connect an Agent…" and, where VS Code has the API, offers
 * the gateway to VS Code's own chat.
 */
import * as vscode from 'vscode';
import type { CommandTable } from '../command-table.js';
import { removeDiscoverySync } from '../../core/gateway/index.js';
import { CONNECT_AGENT_COMMAND, connectAgent } from './connect-agent.js';
import { gatewayStatusItem } from './status-item.js';
import { readGatewayViewSettingsLive } from '../settings.js';
import { gatewayLifecycle, type GatewayDeps } from './lifecycle.js';
import { offerToChat } from './chat-offer.js';

// For src/extension/lazy/gateway.ts: the features are made in this bundle, beside the SDK's server.
export { gatewayFeatures } from '../../core/gateway/index.js';
export type { GatewayDeps } from './lifecycle.js';

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

export function startGatewayIntegration(deps: GatewayDeps): GatewayIntegration {
  const version = String(deps.context.extension.packageJSON.version ?? '0.0.0');
  const changed = new vscode.EventEmitter<void>();
  let disposed = false;
  let queue: Promise<void> = Promise.resolve();
  const life = gatewayLifecycle(deps, version, changed, () => disposed);
  const onExit = (): void => {
    const r = life.running();
    if (r) removeDiscoverySync(r.file);
  };
  process.once('exit', onExit);

  // One start or stop at a time, in the order the settings changed.
  const schedule = (): Promise<void> => (queue = queue.then(life.apply, life.apply));
  const endpoint = (): { url: string; token: string } | undefined => {
    const r = life.running();
    return r ? { url: r.http.url, token: r.http.token } : undefined;
  };
  // Agents with a connection open: one that checked in and left without ending its session is not counted.
  const agentCount = (): number => life.running()?.http.liveSessionCount() ?? 0;

  const subs: vscode.Disposable[] = [
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcpHost.gateway')) void schedule();
    }),
    gatewayStatusItem({ endpoint, agentCount, onDidChange: changed.event }),
  ];
  subs.push(...offerToChat(deps, version, endpoint, changed.event));
  const ready = schedule();

  return {
    commands: {
      [CONNECT_AGENT_COMMAND]: () => connectAgent(endpoint(), Object.keys(readGatewayViewSettingsLive().profiles)),
    },
    refresh: () => life.running()?.gateway.refresh(),
    endpoint,
    agentCount,
    ready,
    onDidChange: changed.event,
    dispose() {
      disposed = true;
      process.off('exit', onExit);
      queue = queue.then(life.stop, life.stop).finally(() => subs.forEach((s) => s.dispose()));
    },
  };
}
