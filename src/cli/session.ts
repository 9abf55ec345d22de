/**
 * One CLI run: reads the config of a folder (plus `--config` files), creates the host, starts only
 * the servers a command needs, and always disposes (stopping every process it started).
 */
import { sharedSandboxRuntime } from '../core/sandbox/index.js';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { hostPrivateDirs } from '../core/user-dir.js';
import type { HostOptions, ServerSnapshot } from '../core/host-api.js';
import {
  configFilesToWatch,
  type ConfigProblem,
  formatJsonPath,
  type LoadedConfig,
  type LoadOptions,
  managedPolicyFiles,
  readConfig,
  type ReadConfig,
  readUserSettingsServers,
  type ServerApprovals,
  type ServerDefinition,
  ServerRegistry,
  sharedServerApprovals,
  userSettingsFile,
  type WatchFiles,
} from '../core/config/index.js';

export { formatJsonPath } from '../core/config/index.js';
import { createHost, type McpHost } from '../core/host.js';
import type { FeatureOptions } from '../core/features/index.js';
import { disabledServersFor, toolFilterFor, type ToolFilter } from '../core/tools/index.js';
import { cliAuthProvider, createCliAuth } from './host-auth.js';
import { enterpriseIdpSettings, type IdpChoice } from '../core/auth/index.js';
import { cliConfigDir, FileKeyValueStore } from './auth-store.js';
import { cliRoots, printServerLog, terminalElicitation } from './elicitation.js';
import { processTerminal } from './process-terminal.js';
import { usageError } from './errors.js';
import { knownSecrets, redactWith, type SafeIo } from './output.js';
import { openTraceFile, type TraceFile } from './trace-file.js';
import type { CliTelemetry } from './telemetry.js';
import { cliListCache } from './list-cache.js';
import type { ListCache } from '../core/connection/index.js';
import { blobDirFor, envInputs, stderrLogger } from './ports.js';
import { askToStart, CliApprovals } from './approvals.js';
import type { Io } from './io.js';
import { VERSION } from '../core/version.js';

export type { Io } from './io.js';

export interface SessionOptions {
  workspace?: string;
  configs: string[];
  verbose?: boolean;
  /** `--trace FILE` */
  trace?: string;
  /** `--user-settings`: the editor's user settings.json (default: VS Code's, per platform). */
  userSettings?: string;
  /** `--clear-list-cache` */
  clearListCache?: boolean;
  /** `--allow-project-servers` / MCP_HOST_ALLOW_PROJECT_SERVERS=1: the folder's own servers need no approval this run. */
  allowProjectServers?: boolean;
}

export class Session {
  private hostInstance: McpHost | undefined;
  private toolFilterInstance: ToolFilter | undefined;
  /** Extra host ports (the gateway bridge as elicitation port); set before `host` is first used. */
  hostExtras: Partial<HostOptions> = {};
  /** OpenTelemetry of the servers' connections (`serve`, when configured: telemetry.ts); set before `host` is first used, ended with the session. */
  telemetry: CliTelemetry | undefined;
  /** Lets `serve` plug the gateway bridge into the one sampling/log entry point (HostOptions.features). */
  featuresFor: (base: FeatureOptions) => FeatureOptions = (base) => base;

  /** Redacts text for printing: secret shapes, and the env and header values this run knows. */
  redact: (text: string) => string;

  /** Where admitted definitions go: nowhere by default (a command starts what it needs), the gateway under `serve`. */
  onConfig: (servers: ServerDefinition[]) => void = () => {};
  /**
   * Set by a command that ends on a signal its own way (`serve --http` drains): the first SIGTERM or
   * SIGINT goes here instead of stopping the process (main.ts); a second one still stops it.
   */
  onStopSignal: ((signal: NodeJS.Signals) => void) | undefined;
  /** Gateway URLs admission holds back (an entry pointing at one would loop); `serve` finds the running ones. */
  ownGateways: () => Promise<readonly string[]> | readonly string[] = () => [];
  /** The core registry: the same read → keep last good → admit → resolve as the editor's. */
  readonly registry: ServerRegistry;
  /** The approvals of this folder's own servers, shared with the editor (core/config/approvals-file.ts). */
  readonly approvalStore: ServerApprovals;
  /** What admission asks; undefined with --allow-project-servers, when the folder's servers need none. */
  private readonly approvals: CliApprovals | undefined;

  private constructor(
    readonly io: Io,
    readonly workspace: string,
    private readonly loadOptions: LoadOptions,
    /** The editor's user settings.json: `mcpHost.servers` is read from it, `--scope user` writes it. */
    readonly userSettingsFile: string,
    /** Its other values (`mcpHost.registry.url`, `mcpHost.managedConfigPath`). */
    readonly userSettings: Record<string, unknown> = {},
    private readonly verbose = false,
    private readonly trace?: TraceFile,
    allowProjectServers = false,
  ) {
    this.approvalStore = sharedServerApprovals(workspace, io.env);
    this.approvals = allowProjectServers ? undefined : new CliApprovals(this.approvalStore);
    this.registry = new ServerRegistry({
      log: stderrLogger(io.env, io.stderr),
      read: () => this.read(),
      apply: (servers) => this.onConfig(servers),
      // No Workspace Trust here; what a cloned repository defines waits for approval instead, as in
      // the editor: running a command in a folder is no consent to the commands its files name.
      trusted: () => true,
      approvals: this.approvals,
      // Servers switched off in the editor for this folder stay off here too.
      disabled: disabledServersFor(workspace, io.env),
      inputs: envInputs(io.env),
      ownGateways: () => this.ownGateways(),
      // Where this CLI keeps its secrets: its environment's folders, hidden from sandboxed servers.
      privateDirs: hostPrivateDirs(io.env),
    });
    this.redact = this.learnSecrets();
    this.registry.onDidChange(() => {
      this.redact = this.learnSecrets();
    });
  }

  /** The last admitted and resolved config. */
  get config(): LoadedConfig {
    return this.registry.config;
  }

  /** Every source, the user's settings.json included (it may have changed since the last read). */
  private async read(): Promise<ReadConfig> {
    const user = await readUserSettingsServers(this.userSettingsFile);
    const read = await readConfig({
      ...this.loadOptions,
      userServers: user.servers,
      userSandbox: user.settings['mcpHost.sandbox'],
      userTeamGateway: user.settings['mcpHost.teamGateway'],
    });
    // A broken settings.json is reported, not fatal.
    return {
      ...read,
      problems: [...user.problems, ...read.problems],
      files: [...new Set([...(read.files ?? []), ...this.files()])],
    };
  }

  /** The env and header values of the current config (and secret-named env variables) become known secrets. */
  private learnSecrets(): (text: string) => string {
    const secrets = knownSecrets(this.io.env, this.config.servers);
    (this.io as Partial<SafeIo>).learn?.(secrets);
    return redactWith(secrets);
  }

  /** Loads the config; a missing workspace or `--config` file is a usage error. */
  static async open(io: Io, o: SessionOptions): Promise<Session> {
    const workspace = resolve(io.cwd, o.workspace ?? '.');
    if (!existsSync(workspace) || !statSync(workspace).isDirectory())
      throw usageError(`--workspace ${o.workspace ?? '.'}: no such folder (${workspace})`);
    const configFiles = o.configs.map((f) => resolve(io.cwd, f));
    for (const [i, f] of configFiles.entries()) {
      if (!existsSync(f)) throw usageError(`--config ${o.configs[i]}: no such file (${f})`);
    }
    const homeDir = io.env.HOME || homedir();
    const settingsFile = userSettingsFile({
      override: o.userSettings ? resolve(io.cwd, o.userSettings) : undefined,
      env: io.env,
      homeDir,
      platform: process.platform,
    });
    // The same user servers the editor runs (read again by each load); a broken settings.json is reported, not fatal.
    const user = await readUserSettingsServers(settingsFile);
    const options: LoadOptions = {
      folders: [workspace],
      userSandbox: user.settings['mcpHost.sandbox'],
      // The same managed file the editor reads (`mcpHost.managedConfigPath`): its deny rules bind the CLI too.
      managedPath: managedPathFor(io.env, user.settings),
      configFiles,
      env: io.env,
      // `${userHome}` is the home the settings file is found in (the env given, as for a test run in process).
      homeDir,
    };
    const session = new Session(
      io,
      workspace,
      options,
      settingsFile,
      user.settings,
      o.verbose,
      o.trace !== undefined ? openTraceFile(resolve(io.cwd, o.trace)) : undefined,
      o.allowProjectServers,
    );
    session.idp = await enterpriseIdpSettings(
      managedPolicyFiles({ managedPath: options.managedPath, env: io.env }),
      user.settings['mcpHost.enterpriseIdp'],
    );
    for (const p of session.idp.problems) io.stderr(`mcp-host: warning: ${p}\n`);
    if (o.clearListCache) await session.listCache.clear();
    await session.registry.reload();
    return session;
  }

  private listCacheInstance: ListCache | undefined;

  get listCache(): ListCache {
    return (this.listCacheInstance ??= cliListCache(this.io.env, this.workspace, (m) => this.io.stderr(`${m}\n`)));
  }

  /** The company identity provider (enterprise-managed authorization), if one is configured. */
  idp: IdpChoice = { problems: [] };

  /** Follows edits of every file the config came from (a long-running `serve`); reloads coalesce in the registry. */
  follow(watchFiles: WatchFiles): void {
    this.registry.follow(watchFiles);
  }

  /** The config files this session reads: what a long-running command watches. */
  files(): string[] {
    return [...configFilesToWatch(this.loadOptions), ...(this.loadOptions.configFiles ?? []), this.userSettingsFile];
  }

  get host(): McpHost {
    this.hostInstance ??= createHost({
      logger: stderrLogger(this.io.env, this.io.stderr),
      env: this.io.env,
      // Servers inherit from the run's environment (the process's in the binary, a test's in runCli).
      serverEnv: this.io.env,
      blobDir: blobDirFor(this.io.env),
      clientInfo: { name: 'mcp-host-cli', version: VERSION },
      // Roots and elicitation as the editor has them (so servers offer the CLI the same tools);
      // no sampling: the CLI has no model to serve it.
      roots: cliRoots(this.workspace),
      elicitation: terminalElicitation(this.io.terminal ?? processTerminal(), this.io.stderr),
      features: this.featuresFor(
        this.verbose ? { onServerLog: printServerLog(this.io.stderr), logLevel: () => 'debug' } : {},
      ),
      // Tokens from `mcp-host auth`; a server without them ends in needs-auth, never opens a browser.
      authProvider: cliAuthProvider(createCliAuth(this.io, { idp: this.idp.settings })),
      // Protocol eras already found (core/connection/era.ts), so a known server is not probed again.
      eraStore: new FileKeyValueStore(cliConfigDir(this.io.env), (m) => this.io.stderr(`mcp-host: warning: ${m}\n`)),
      listCache: this.listCache,
      // The editor's user setting, so `serve` and `call` start servers when the editor would.
      ...(this.userSettings['mcpHost.startServers'] === 'onFirstUse' ? { startServers: 'onFirstUse' as const } : {}),
      ...this.hostExtras,
      ...this.wrapTransport(),
    });
    return this.hostInstance;
  }

  /** The protocol trace (`--trace`) nearest the wire, telemetry around it: the trace shows the trace context sent. */
  private wrapTransport(): Pick<HostOptions, 'wrapTransport'> {
    const hub = this.trace?.hub;
    const telemetry = this.telemetry?.telemetry;
    if (!hub && !telemetry) return {};
    return {
      wrapTransport: (def, t) => {
        const traced = hub ? hub.attach(def, t) : t;
        return telemetry ? telemetry.upstream(def, traced) : traced;
      },
    };
  }

  /** The editor's per-workspace tool choices for this folder (core/tools/workspace-state.ts). */
  get toolFilter(): ToolFilter {
    this.toolFilterInstance ??= toolFilterFor(this.workspace, this.io.env);
    return this.toolFilterInstance;
  }

  /** Every configured server name, in config order. */
  names(): string[] {
    return this.config.servers.map((s) => s.name);
  }

  definition(name: string): ServerDefinition | undefined {
    return this.config.servers.find((s) => s.name === name);
  }

  problemsFor(name: string): ConfigProblem[] {
    return this.config.problems.filter((p) => p.server === name);
  }

  /**
   * The definition named `name`, or a usage error: one that lists the config problems when the
   * entry exists but is broken, or the known names when there is no such server.
   */
  require(name: string): ServerDefinition {
    const def = this.definition(name);
    if (def) return def;
    const problems = this.problemsFor(name).filter((p) => p.severity === 'error');
    if (problems.length) {
      throw usageError(
        `server "${name}" has configuration errors:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
      );
    }
    const known = this.names();
    throw usageError(
      `unknown server "${name}"; known servers: ${known.length ? known.join(', ') : '(none)'}`,
      known.length
        ? undefined
        : `No servers are configured for ${this.workspace} (.mcp.json, .vscode/mcp.json or --config).`,
    );
  }

  /**
   * Starts exactly `defs` (others are never spawned) and waits until each has settled. Those of
   * them awaiting approval are asked about first, on a terminal; without one they stay held.
   */
  async start(defs: ServerDefinition[]): Promise<ServerSnapshot[]> {
    if (this.approvals && (await askToStart(this.io, this.approvals, defs))) {
      await this.registry.readmit();
      defs = defs.map((d) => this.definition(d.name) ?? d);
    }
    this.host.setDefinitions(defs);
    await this.host.whenSettled();
    return this.host.servers();
  }

  /** Prints config problems (all, or those of some servers) to stderr. */
  reportProblems(filter?: (p: ConfigProblem) => boolean): void {
    for (const p of this.config.problems) if (!filter || filter(p)) this.io.stderr(`${formatProblem(p)}\n`);
  }

  async dispose(): Promise<void> {
    try {
      await this.hostInstance?.dispose();
      // The sandbox's shared proxy listens until stopped; it would keep the CLI running.
      await sharedSandboxRuntime().dispose();
    } finally {
      this.trace?.close();
      // After the servers stopped: their connections' last spans and session durations go out too.
      await this.telemetry?.shutdown();
    }
  }
}

/** `file:line:col: severity: message (at mcpServers.name.command)` */
export function formatProblem(p: ConfigProblem): string {
  const where = p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}` : p.file;
  const path = p.jsonPath.length ? ` (at ${formatJsonPath(p.jsonPath)})` : '';
  return `${where}: ${p.severity}: ${p.message}${path}`;
}

/**
 * The managed (policy) file: `MCP_HOST_MANAGED_CONFIG`, else the editor's `mcpHost.managedConfigPath`
 * from the user settings.json, so the CLI obeys the same policy (servers and registry) as the editor.
 */
export function managedPathFor(
  env: Record<string, string | undefined>,
  settings: Record<string, unknown>,
): string | undefined {
  const fromSettings = settings['mcpHost.managedConfigPath'];
  return env.MCP_HOST_MANAGED_CONFIG || (typeof fromSettings === 'string' && fromSettings ? fromSettings : undefined);
}
