/**
 * The one reader of the `mcpHost.*` settings (package.json declares them; the defaults here match).
 * Every value is checked for its type, so a hand-edited settings.json with a wrong type falls back
 * to the default instead of reaching core as `"3"` or `null`. Writers of `mcpHost.servers` go
 * through `userServersSetting` so nothing else calls `getConfiguration('mcpHost')`.
 */
import * as vscode from 'vscode';
import type { DiscoverySource } from '../core/config/load.js';

export interface McpHostSettings {
  /** `mcpHost.servers` as written (validated by the loader, not here). */
  servers: unknown;
  autoStart: boolean;
  concurrency: { local?: number; remote?: number };
  timeouts: { connectMs?: number; toolCallMs?: number };
  ideServerEnabled: boolean;
  gateway: { enabled: boolean; exclude: string[] };
  discovery: { enabled: boolean; sources?: DiscoverySource[] };
  /** Empty setting: undefined. */
  managedConfigPath?: string;
  registryUrl?: string;
}

const SECTION = 'mcpHost';

function bool(cfg: vscode.WorkspaceConfiguration, key: string, fallback: boolean): boolean {
  const v = cfg.get<unknown>(key);
  return typeof v === 'boolean' ? v : fallback;
}

/** A positive whole number, or undefined (core then uses its default or the MCP_* override). */
function count(cfg: vscode.WorkspaceConfiguration, key: string): number | undefined {
  const v = cfg.get<unknown>(key);
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

function text(cfg: vscode.WorkspaceConfiguration, key: string): string | undefined {
  const v = cfg.get<unknown>(key);
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function strings(cfg: vscode.WorkspaceConfiguration, key: string): string[] | undefined {
  const v = cfg.get<unknown>(key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

export function readSettings(): McpHostSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return {
    servers: cfg.get<unknown>('servers'),
    autoStart: bool(cfg, 'autoStart', true),
    concurrency: { local: count(cfg, 'concurrency.local'), remote: count(cfg, 'concurrency.remote') },
    timeouts: { connectMs: count(cfg, 'timeouts.connect'), toolCallMs: count(cfg, 'timeouts.toolCall') },
    ideServerEnabled: bool(cfg, 'ideServer.enabled', true),
    gateway: { enabled: bool(cfg, 'gateway.enabled', true), exclude: strings(cfg, 'gateway.exclude') ?? [] },
    discovery: { enabled: bool(cfg, 'discovery.enabled', false), sources: strings(cfg, 'discovery.sources') as DiscoverySource[] | undefined },
    managedConfigPath: text(cfg, 'managedConfigPath'),
    registryUrl: text(cfg, 'registry.url'),
  };
}

/** The user-scope (global) value of `mcpHost.servers` and its writer; VS Code's writer keeps settings.json's comments. */
export const userServersSetting = {
  get(): Record<string, unknown> {
    return vscode.workspace.getConfiguration(SECTION).inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
  },
  update(value: Record<string, unknown>): Thenable<void> {
    return vscode.workspace.getConfiguration(SECTION).update('servers', value, vscode.ConfigurationTarget.Global);
  },
};
