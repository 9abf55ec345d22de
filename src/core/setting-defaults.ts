/**
 * The one statement of every `mcpHost.*` setting's default. `scripts/gen-schema.mjs` writes these
 * into package.json's `contributes.configuration`, the editor's settings reader falls back to them,
 * and core's own defaults (timeouts, pools, trace capacity, registry URL) are taken from here, so a
 * default changed in one place is the default everywhere. Keys are the setting names without `mcpHost.`.
 */
/** The other apps whose configs discovery can read (config/sources/discovery.ts reads them). */
export const DISCOVERY_SOURCES = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'windsurf',
  'copilot-cli',
  'gemini-cli',
  'codex',
] as const;

export const SETTING_DEFAULTS = {
  servers: {},
  autoStart: true,
  startServers: 'onStartup',
  'concurrency.local': 3,
  'concurrency.remote': 20,
  'timeouts.connect': 30_000,
  'timeouts.toolCall': 600_000,
  'ideServer.enabled': true,
  'ideServer.geminiCli.enabled': true,
  'gateway.enabled': true,
  'gateway.exclude': [],
  'discovery.enabled': false,
  'discovery.sources': [...DISCOVERY_SOURCES],
  managedConfigPath: '',
  'sampling.alwaysAllow': [],
  'logging.level': 'info',
  'logging.serverLevels': {},
  'ping.intervalSeconds': 60,
  'registry.url': 'https://registry.modelcontextprotocol.io',
  'trace.servers': [],
  'trace.capacity': 2000,
  'dev.restartDelay': 500,
  sandbox: {},
  sharedServers: 'ask',
  sharedServersPerServer: {},
  'gateway.toolSearch': 'auto',
  'gateway.toolSearchMaxTools': 64,
  'gateway.toolSearchMaxSchemaBytes': 65536,
  'gateway.alwaysList': [],
  'gateway.profiles': {},
  'gateway.maxResultTokens': 25000,
  sandboxNewServers: false,
  sandboxRegistryInstalls: 'ask',
  enterpriseIdp: null,
  teamGateway: null,
} as const satisfies Record<string, unknown>;

export type SettingKey = keyof typeof SETTING_DEFAULTS;
