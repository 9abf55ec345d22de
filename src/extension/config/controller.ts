import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import {
  type ApprovalPort,
  type ConfigProblem,
  type DisabledServersPort,
  heldReason,
  type HeldReason,
  type ReadConfig,
  type ServerDefinition,
  ServerRegistry,
} from '../../core/config/index.js';
import { Emitter } from '../../core/events.js';
import type { InputResolver, Logger } from '../../core/ports.js';
import type { TreeSource } from '../tree/tree-source.js';
import { readSettings } from '../settings.js';

/** Approval of project/workspace definitions (name + approval hash), see `approval-prompt.ts`. */
export type Approvals = ApprovalPort;

export interface ControllerDeps {
  host: McpHost;
  log: Logger;
  /** Reads every source (core `readConfig` with the editor's settings, folders and dynamic servers); no gating. */
  read(dynamic: ReadonlyMap<string, unknown>): Promise<ReadConfig>;
  /** For `${input:}` values of admitted servers. */
  inputs?: InputResolver;
  /** `vscode.workspace.isTrusted`, read at each admission. */
  trusted(): boolean;
  approvals: Approvals;
  /** The workspace's disabled servers, in the file the CLI reads too (core/tools/disabled-servers.ts). */
  disabled: DisabledServersPort;
  /** URLs of this editor's own gateway, which admission never lets a config entry connect to. */
  ownGateways?: () => string[];
  /** Servers the editor also runs itself, and which of them the user left to it (vscode-mcp/shared-servers.ts). */
  sharedServers?: {
    leftToEditor(def: ServerDefinition): boolean;
    readByEditor(def: ServerDefinition): boolean;
  };
  /** MCP Host's own secret folders, hidden from sandboxed servers (core/user-dir.ts). */
  privateDirs?: readonly string[];
}

/**
 * The editor's side of the core server registry (core/config/server-registry.ts): VS Code's
 * change events and file watchers trigger reloads, admission results go to the host and the log,
 * and an untrusted workspace is answered with VS Code's trust dialog.
 */
export class ConfigController implements TreeSource, vscode.Disposable {
  private readonly changed = new Emitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly registry: ServerRegistry;

  constructor(private readonly deps: ControllerDeps) {
    this.registry = new ServerRegistry({
      log: deps.log,
      read: deps.read,
      apply: (servers) => this.apply(servers),
      trusted: deps.trusted,
      approvals: deps.approvals,
      disabled: deps.disabled,
      inputs: deps.inputs,
      autoStart: () => readSettings().autoStart,
      ownGateways: deps.ownGateways,
      leftToEditor: deps.sharedServers && ((def) => deps.sharedServers!.leftToEditor(def)),
      readByEditor: deps.sharedServers && ((def) => deps.sharedServers!.readByEditor(def)),
      privateDirs: deps.privateDirs,
      watchFiles: watchFiles,
    });
    this.disposables.push(
      this.registry,
      this.registry.onDidChange(() => this.changed.fire(undefined)),
      deps.host.onDidChangeServer((e) => this.changed.fire(e.name)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (
          e.affectsConfiguration('mcpHost.servers') ||
          e.affectsConfiguration('mcpHost.discovery') ||
          e.affectsConfiguration('mcpHost.teamGateway') ||
          e.affectsConfiguration('mcpHost.managedConfigPath')
        )
          this.scheduleReload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        deps.log.info('workspace trusted: starting its servers');
        void this.readmit();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleReload()),
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.mcp.json,.vscode/mcp.json}');
    const onFile = (): void => this.scheduleReload();
    this.disposables.push(
      watcher,
      watcher.onDidChange(onFile),
      watcher.onDidCreate(onFile),
      watcher.onDidDelete(onFile),
    );
  }

  private apply(servers: ServerDefinition[]): void {
    for (const p of this.registry.problems()) {
      if (p.severity === 'error')
        this.deps.log.warn(
          `config problem: ${p.file}${p.jsonPath.length ? ` at ${p.jsonPath.join('.')}` : ''}: ${p.message}`,
        );
    }
    const t0 = performance.now();
    this.deps.host.setDefinitions(servers);
    const starting = this.deps.host.servers().filter((s) => s.state.kind === 'pending').length;
    if (starting) {
      void this.deps.host.whenSettled().then(() => {
        const states = this.deps.host.servers().map((s) => `${s.name}=${heldReason(s.definition) ?? s.state.kind}`);
        this.deps.log.info(
          `${starting} server(s) settled in ${Math.round(performance.now() - t0)} ms (${states.join(', ')})`,
        );
      });
    }
  }

  // TreeSource -----------------------------------------------------------------------------
  servers(): ServerSnapshot[] {
    return this.deps.host.servers();
  }
  server(name: string): ServerSnapshot | undefined {
    return this.deps.host.server(name);
  }
  /** Why admission holds the server back, or undefined when it runs. */
  gate(name: string): HeldReason | undefined {
    return this.registry.gate(name);
  }
  problems(): ConfigProblem[] {
    return this.registry.problems();
  }

  /** The definition with its admission (resolved when it runs). */
  definition(name: string): ServerDefinition | undefined {
    return this.registry.definition(name);
  }

  // Reload ---------------------------------------------------------------------------------
  /** Re-reads every source, then admits. Concurrent calls coalesce into one more run after the current one. */
  reload(): Promise<void> {
    return this.registry.reload();
  }

  /** Admits the last read again (trust, approvals, disabled list, manual start changed): no file is read. */
  readmit(): Promise<void> {
    return this.registry.readmit();
  }

  /** A reload once change events stop for a moment (a save that touches several files is one read). */
  scheduleReload(): void {
    this.registry.scheduleReload();
  }

  // Actions --------------------------------------------------------------------------------
  /** Start for a held-back server: asks for approval (again, even if once declined), enables, or explains. */
  async approveAndStart(name: string): Promise<boolean> {
    const held = await this.registry.approveAndStart(name);
    if (held === 'untrusted') {
      const pick = await vscode.window.showWarningMessage(
        `"${name}" is defined by this workspace, which is not trusted. Trust the workspace to start its servers.`,
        'Manage Workspace Trust',
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return false;
    }
    return held === undefined;
  }

  isUserDisabled(name: string): boolean {
    return this.registry.isUserDisabled(name);
  }

  /** Per-workspace disabled list, for servers whose file we do not edit (managed, discovered, dynamic). */
  setUserDisabled(name: string, disabled: boolean): Promise<void> {
    return this.registry.setUserDisabled(name, disabled);
  }

  expectSelfAdded(name: string): void {
    this.registry.expectSelfAdded(name);
  }

  // Dynamic scope (exported API) -------------------------------------------------------------
  registerDynamic(name: string, entry: unknown): void {
    this.registry.registerDynamic(name, entry);
  }

  unregisterDynamic(name: string): boolean {
    return this.registry.unregisterDynamic(name);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}

/**
 * Every file the loader read or looked for (managed file, other apps' configs, env files) gets a
 * watcher of its own; the glob watcher covers the folders' `.mcp.json` / `.vscode/mcp.json`.
 */
function watchFiles(files: readonly string[], onChange: () => void): vscode.Disposable {
  const watchers = files.map((f) => {
    const uri = vscode.Uri.file(f);
    const w = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop() ?? ''),
    );
    w.onDidChange(onChange);
    w.onDidCreate(onChange);
    w.onDidDelete(onChange);
    return w;
  });
  return { dispose: () => watchers.forEach((w) => w.dispose()) };
}
