/**
 * One CLI run: reads the config of a folder (plus `--config` files), creates the host, starts only
 * the servers a command needs, and always disposes (stopping every process it started).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { HostOptions, ServerSnapshot } from '../core/api.js';
import { formatJsonPath } from '../core/config/jsonc.js';
import { configFilesToWatch, loadConfig, type LoadAndAdmitOptions } from '../core/config/load.js';

export { formatJsonPath } from '../core/config/jsonc.js';
import type { ConfigProblem, LoadedConfig, ServerDefinition } from '../core/config/types.js';
import { createHost, type ConnectionManager } from '../core/host.js';
import { cliAuthProvider, createCliAuth } from './host-auth.js';
import { usageError } from './errors.js';
import { openTraceFile, type TraceFile } from './trace-file.js';
import { blobDirFor, envInputs, stderrLogger } from './ports.js';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface SessionOptions {
  workspace?: string;
  configs: string[];
  /** `--trace FILE` */
  trace?: string;
}

export class Session {
  private hostInstance: ConnectionManager | undefined;
  /** Extra host ports (the gateway's elicitation/sampling bridge); set before `host` is first used. */
  hostExtras: Partial<HostOptions> = {};

  private constructor(
    readonly io: Io,
    readonly workspace: string,
    public config: LoadedConfig,
    private readonly trace?: TraceFile,
  ) {}

  /** Loads the config; a missing workspace or `--config` file is a usage error. */
  static async open(io: Io, o: SessionOptions): Promise<Session> {
    const workspace = resolve(io.cwd, o.workspace ?? '.');
    if (!existsSync(workspace) || !statSync(workspace).isDirectory()) throw usageError(`--workspace ${o.workspace ?? '.'}: no such folder (${workspace})`);
    const configFiles = o.configs.map((f) => resolve(io.cwd, f));
    for (const [i, f] of configFiles.entries()) {
      if (!existsSync(f)) throw usageError(`--config ${o.configs[i]}: no such file (${f})`);
    }
    const options: LoadAndAdmitOptions = {
      folders: [workspace],
      // The same managed file the editor reads (`mcpHost.managedConfigPath`): its deny rules bind the CLI too.
      managedPath: io.env.MCP_HOST_MANAGED_CONFIG || undefined,
      configFiles,
      env: io.env,
      inputs: envInputs(io.env),
      // Running the CLI in a folder is the user's explicit act: its servers start without approval.
      trusted: true,
    };
    const session = new Session(io, workspace, await loadConfig(options), o.trace !== undefined ? openTraceFile(resolve(io.cwd, o.trace)) : undefined);
    session.loadOptions = options;
    return session;
  }

  private loadOptions: LoadAndAdmitOptions | undefined;

  /**
   * Reads the config again (a long-running `serve` follows edits); returns the new one.
   * `ownGateways`: gateway URLs admission holds back (an entry pointing at one would loop).
   */
  async reload(ownGateways?: readonly string[]): Promise<LoadedConfig> {
    if (this.loadOptions) {
      if (ownGateways) this.loadOptions = { ...this.loadOptions, ownGateways };
      this.config = await loadConfig(this.loadOptions);
    }
    return this.config;
  }

  /** The config files this session reads: what a long-running command watches. */
  files(): string[] {
    return this.loadOptions ? [...configFilesToWatch(this.loadOptions), ...(this.loadOptions.configFiles ?? [])] : [];
  }

  get host(): ConnectionManager {
    this.hostInstance ??= createHost({
      logger: stderrLogger(this.io.env, this.io.stderr),
      env: this.io.env,
      blobDir: blobDirFor(this.io.env),
      clientInfo: { name: 'mcp-host-cli', version: '0.1.0' },
      // Tokens from `mcp-host auth`; a server without them ends in needs-auth, never opens a browser.
      authProvider: cliAuthProvider(createCliAuth(this.io)),
      ...this.hostExtras,
      ...(this.trace ? { wrapTransport: this.trace.hub.attach.bind(this.trace.hub) } : {}),
    });
    return this.hostInstance;
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
      throw usageError(`server "${name}" has configuration errors:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    }
    const known = this.names();
    throw usageError(`unknown server "${name}"; known servers: ${known.length ? known.join(', ') : '(none)'}`, known.length ? undefined : `No servers are configured for ${this.workspace} (.mcp.json, .vscode/mcp.json or --config).`);
  }

  /** Starts exactly `defs` (others are never spawned) and waits until each has settled. */
  async start(defs: ServerDefinition[]): Promise<ServerSnapshot[]> {
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
    } finally {
      this.trace?.close();
    }
  }
}

/** `file:line:col: severity: message (at mcpServers.name.command)` */
export function formatProblem(p: ConfigProblem): string {
  const where = p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}` : p.file;
  const path = p.jsonPath.length ? ` (at ${formatJsonPath(p.jsonPath)})` : '';
  return `${where}: ${p.severity}: ${p.message}${path}`;
}
