/**
 * The one reader of the `mcpHost.*` settings (package.json declares them; both take their defaults
 * from core/setting-defaults.ts).
 * Every value is checked for its type, so a hand-edited settings.json with a wrong type falls back
 * to the default instead of reaching core as `"3"` or `null`. The two writers (`mcpHost.servers`,
 * `mcpHost.sampling.alwaysAllow`) are here too, so nothing else calls `getConfiguration('mcpHost')`.
 */
import * as vscode from 'vscode';
import type { DiscoverySource } from '../core/config/index.js';
import { readGatewayViewSettings, type GatewayViewSettings } from '../core/gateway/view-settings.js';
import { SETTING_DEFAULTS as D } from '../core/setting-defaults.js';

export interface McpHostSettings {
  /** `mcpHost.servers` as written (validated by the loader, not here). */
  servers: unknown;
  /** `mcpHost.sandbox`: the sandbox rules of those servers (VS Code's `sandbox` shape). */
  sandbox: unknown;
  /** `mcpHost.teamGateway` as written (checked by the loader, core/config/sources/team-gateway.ts). */
  teamGateway: unknown;
  autoStart: boolean;
  /** `mcpHost.startServers`: `onFirstUse` leaves a server with cached lists idle until a call needs it. */
  startServers: 'onStartup' | 'onFirstUse';
  concurrency: { local?: number; remote?: number };
  timeouts: { connectMs?: number; toolCallMs?: number };
  ideServerEnabled: boolean;
  /** `mcpHost.ideServer.geminiCli.enabled`: Gemini CLI's IDE companion interface. */
  ideServerGeminiEnabled: boolean;
  gateway: { enabled: boolean; exclude: string[] };
  discovery: { enabled: boolean; sources?: DiscoverySource[] };
  /** Empty setting: undefined. */
  managedConfigPath?: string;
  registryUrl?: string;
  /** Servers whose sampling requests run without asking. */
  samplingAlwaysAllow: string[];
  logging: { level: string; serverLevels: Record<string, string> };
  /** 0: no pings. */
  pingIntervalSeconds: number;
  trace: { servers: string[]; capacity: number };
  devRestartDelayMs: number;
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

/** A whole number ≥ `min`, else `fallback` (0 is a valid value for some settings). */
function atLeast(cfg: vscode.WorkspaceConfiguration, key: string, min: number, fallback: number): number {
  const v = cfg.get<unknown>(key);
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fallback;
}

function stringMap(cfg: vscode.WorkspaceConfiguration, key: string): Record<string, string> {
  const v = cfg.get<unknown>(key);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function strings(cfg: vscode.WorkspaceConfiguration, key: string): string[] | undefined {
  const v = cfg.get<unknown>(key);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/** Tool search mode, profiles and result limits (core gateway/view-settings.ts reads the same keys for the CLI). */
export function readGatewayViewSettingsLive(): GatewayViewSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return readGatewayViewSettings((key) => cfg.get<unknown>(key));
}

export function readSettings(): McpHostSettings {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  return {
    servers: cfg.get<unknown>('servers'),
    sandbox: cfg.get<unknown>('sandbox'),
    teamGateway: cfg.get<unknown>('teamGateway'),
    autoStart: bool(cfg, 'autoStart', D['autoStart']),
    startServers: cfg.get<unknown>('startServers') === 'onFirstUse' ? 'onFirstUse' : 'onStartup',
    concurrency: { local: count(cfg, 'concurrency.local'), remote: count(cfg, 'concurrency.remote') },
    timeouts: { connectMs: count(cfg, 'timeouts.connect'), toolCallMs: count(cfg, 'timeouts.toolCall') },
    ideServerEnabled: bool(cfg, 'ideServer.enabled', D['ideServer.enabled']),
    ideServerGeminiEnabled: bool(cfg, 'ideServer.geminiCli.enabled', D['ideServer.geminiCli.enabled']),
    gateway: {
      enabled: bool(cfg, 'gateway.enabled', D['gateway.enabled']),
      exclude: strings(cfg, 'gateway.exclude') ?? [],
    },
    discovery: {
      enabled: bool(cfg, 'discovery.enabled', D['discovery.enabled']),
      sources: strings(cfg, 'discovery.sources') as DiscoverySource[] | undefined,
    },
    managedConfigPath: text(cfg, 'managedConfigPath'),
    registryUrl: text(cfg, 'registry.url'),
    samplingAlwaysAllow: strings(cfg, 'sampling.alwaysAllow') ?? [],
    logging: {
      level: text(cfg, 'logging.level') ?? D['logging.level'],
      serverLevels: stringMap(cfg, 'logging.serverLevels'),
    },
    pingIntervalSeconds: atLeast(cfg, 'ping.intervalSeconds', 0, D['ping.intervalSeconds']),
    trace: {
      servers: strings(cfg, 'trace.servers') ?? [],
      capacity: Math.max(10, atLeast(cfg, 'trace.capacity', 0, D['trace.capacity'])),
    },
    devRestartDelayMs: atLeast(cfg, 'dev.restartDelay', 0, D['dev.restartDelay']),
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

/** `mcpHost.sampling.alwaysAllow` where it is set (user and workspace), and its writer. */
export const samplingAlwaysAllowSetting = {
  inspect(): { globalValue?: string[]; workspaceValue?: string[] } {
    const i = vscode.workspace.getConfiguration(SECTION).inspect<string[]>('sampling.alwaysAllow');
    return { globalValue: i?.globalValue, workspaceValue: i?.workspaceValue };
  },
  update(value: string[], target: vscode.ConfigurationTarget): Thenable<void> {
    return vscode.workspace.getConfiguration(SECTION).update('sampling.alwaysAllow', value, target);
  },
};
