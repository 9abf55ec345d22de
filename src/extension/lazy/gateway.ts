/**
 * The gateway for agents (src/extension/gateway, src/core/gateway, the SDK's server) from
 * dist/gateway.js: loaded after activation when `mcpHost.gateway.enabled` is on, else when it is
 * turned on or "Connect an Agent…" runs. Until then it has no endpoint, as when it is off.
 */
import * as vscode from 'vscode';
import type { GatewayDeps, GatewayIntegration } from '../gateway/index.js';
import { readSettings } from '../settings.js';
import { LazyFeature } from './feature.js';

const IDS = ['mcpHost.connectAgent'] as const;

/** `features` is made in the bundle (core/gateway/features.ts needs the SDK's server). */
export function lazyGatewayIntegration(deps: Omit<GatewayDeps, 'features'>): GatewayIntegration {
  const changed = new vscode.EventEmitter<void>();
  const gateway = new LazyFeature<GatewayIntegration>('the gateway', deps.log, async () => {
    const m = await import('../gateway/index.js');
    const g = m.startGatewayIntegration({ ...deps, features: m.gatewayFeatures(deps.host) });
    const sub = g.onDidChange(() => changed.fire());
    return { ...g, dispose: () => (sub.dispose(), g.dispose()) };
  });
  const wanted = (): boolean => readSettings().gateway.enabled;
  // Config loading waits for this (it must know the gateway's own URL), so only when it starts now.
  const ready = wanted()
    ? new Promise<void>((resolve) =>
        setImmediate(
          () =>
            void gateway
              .get()
              .then((g) => g?.ready)
              .then(resolve, resolve),
        ),
      )
    : Promise.resolve();
  const follow = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('mcpHost.gateway') && wanted()) void gateway.get();
  });
  return {
    endpoint: () => gateway.loaded()?.endpoint(),
    agentCount: () => gateway.loaded()?.agentCount() ?? 0,
    refresh: () => gateway.loaded()?.refresh(),
    commands: gateway.commands(IDS, (g) => g.commands),
    ready,
    onDidChange: changed.event,
    dispose: () => {
      follow.dispose();
      gateway.dispose();
      changed.dispose();
    },
  };
}
