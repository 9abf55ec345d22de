import * as vscode from 'vscode';
import type { McpHost, ServerSnapshot } from '../../core/host-api.js';
import { admit, awaitingApproval, heldReason, type HeldReason } from '../../core/config/admit.js';
import { resolveAdmitted, type ReadConfig } from '../../core/config/load.js';
import type { ConfigProblem, LoadedConfig, ServerDefinition } from '../../core/config/types.js';
import { Emitter } from '../../core/events.js';
import type { InputResolver, Logger } from '../../core/ports.js';
import type { TreeSource } from '../tree/provider.js';
import { keepLastGood } from './last-good.js';
import { debounce } from './debounce.js';
import { approvalHashOf, type ApprovalLookup } from '../../core/config/approvals.js';
import { readSettings } from '../settings.js';

/** Approval of project/workspace definitions (name + approval hash), see `approval-prompt.ts`. */
export interface Approvals extends ApprovalLookup {
  /** Shows the one modal prompt; resolves true when the user allowed them (they are then approved). */
  review(defs: ServerDefinition[], opts: { force: boolean }): Promise<boolean>;
  approve(defs: ServerDefinition[]): Promise<void>;
}

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
  workspaceState: vscode.Memento;
  /** URLs of this editor's own gateway, which admission never lets a config entry connect to. */
  ownGateways?: () => string[];
  /** Servers the editor runs itself and the user left to it (vscode-mcp/shared-servers.ts). */
  leftToEditor?: (def: ServerDefinition) => boolean;
}

const DISABLED_KEY = 'mcpHost.disabledServers';

/**
 * Config sources → admission → inputs → host. Re-reads on file, setting and folder changes
 * (debounced); re-admits without reading on trust, approval, enable/disable and start of a
 * manual server. Hands the host the whole list (it restarts only what changed), keeps last good
 * servers of a broken file, and asks for approval of new project servers once per change.
 */
export class ConfigController implements TreeSource, vscode.Disposable {
  private readonly changed = new Emitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** The last read (not admitted): what a re-admission starts from. */
  private read: ReadConfig | undefined;
  /** The last admitted and resolved result: what the host, the tree and the status bar show. */
  private current: LoadedConfig = { servers: [], problems: [] };
  private readonly dynamic = new Map<string, unknown>();
  /** Servers the user just added through `Add Server…`: their first definition needs no prompt. */
  private readonly selfAdded = new Set<string>();
  private running: Promise<void> | undefined;
  private readRequested = false;
  private admitRequested = false;
  private extraWatchers: vscode.Disposable[] = [];
  private watchedExtra = '';
  private loadedOnce = false;
  /** `mcpHost.autoStart` off: what the first load found waits for an explicit start. */
  private readonly manual = new Set<string>();
  readonly scheduleReload = debounce(() => void this.reload(), 300);

  constructor(private readonly deps: ControllerDeps) {
    this.disposables.push(
      { dispose: () => this.scheduleReload.dispose() },
      deps.host.onDidChangeServer((e) => this.changed.fire(e.name)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (
          e.affectsConfiguration('mcpHost.servers') ||
          e.affectsConfiguration('mcpHost.discovery') ||
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

  // TreeSource -----------------------------------------------------------------------------
  servers(): ServerSnapshot[] {
    return this.deps.host.servers();
  }
  server(name: string): ServerSnapshot | undefined {
    return this.deps.host.server(name);
  }
  /** Why admission holds the server back, or undefined when it runs. */
  gate(name: string): HeldReason | undefined {
    return heldReason(this.definition(name));
  }
  problems(): ConfigProblem[] {
    return this.current.problems;
  }

  /** The definition with its admission (resolved when it runs). */
  definition(name: string): ServerDefinition | undefined {
    return this.current.servers.find((d) => d.name === name);
  }

  // Reload ---------------------------------------------------------------------------------
  /** Re-reads every source, then admits. Concurrent calls coalesce into one more run after the current one. */
  reload(): Promise<void> {
    return this.schedule(true);
  }

  /** Admits the last read again (trust, approvals, disabled list, manual start changed): no file is read. */
  readmit(): Promise<void> {
    return this.schedule(false);
  }

  private schedule(read: boolean): Promise<void> {
    if (read) this.readRequested = true;
    else this.admitRequested = true;
    this.running ??= (async () => {
      try {
        while (this.readRequested || this.admitRequested) {
          const doRead = this.readRequested || !this.read;
          this.readRequested = this.admitRequested = false;
          if (doRead && !(await this.readOnce())) continue;
          await this.admitOnce();
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async readOnce(): Promise<boolean> {
    let read: ReadConfig;
    try {
      read = await this.deps.read(this.dynamic);
    } catch (e) {
      // The loader reports problems rather than throwing; if it throws anyway, keep what runs.
      this.deps.log.error(`reading the MCP configuration failed: ${(e as Error).message}`);
      return false;
    }
    this.read = { ...read, servers: keepLastGood(this.read?.servers ?? [], read) };
    if (!this.loadedOnce && !readSettings().autoStart) {
      for (const d of this.read.servers) this.manual.add(d.name);
      this.deps.log.info('mcpHost.autoStart is off: servers start when you start them');
    }
    this.loadedOnce = true;
    // Self-added servers are approved as written; the user typed them a moment ago.
    const mine = this.read.servers.filter(
      (d) => this.selfAdded.has(d.name) && this.deps.approvals.status(d.name, approvalHashOf(d)) !== 'approved',
    );
    if (mine.length) {
      await this.deps.approvals.approve(mine);
      for (const d of mine) this.selfAdded.delete(d.name);
    }
    return true;
  }

  /** admit → resolve inputs of admitted servers → host; then asks about servers awaiting approval. */
  private async admitOnce(): Promise<void> {
    const read = this.read;
    if (!read) return;
    const admitted = admit(read.servers, {
      trusted: this.deps.trusted(),
      approvals: this.deps.approvals,
      userDisabled: new Set(this.deps.workspaceState.get<string[]>(DISABLED_KEY, [])),
      manualStart: this.manual,
      policy: read.policy,
      ownGateways: this.deps.ownGateways?.(),
      leftToEditor: this.deps.leftToEditor,
    });
    const resolved = await resolveAdmitted(read, admitted, { inputs: this.deps.inputs });
    for (const p of resolved.problems) {
      if (p.severity === 'error')
        this.deps.log.warn(
          `config problem: ${p.file}${p.jsonPath.length ? ` at ${p.jsonPath.join('.')}` : ''}: ${p.message}`,
        );
    }
    this.current = resolved;
    this.watchFiles(resolved.files ?? []);
    const t0 = performance.now();
    this.deps.host.setDefinitions(resolved.servers);
    this.changed.fire(undefined);
    const starting = this.deps.host.servers().filter((s) => s.state.kind === 'pending').length;
    if (starting) {
      void this.deps.host.whenSettled().then(() => {
        const states = this.deps.host.servers().map((s) => `${s.name}=${heldReason(s.definition) ?? s.state.kind}`);
        this.deps.log.info(
          `${starting} server(s) settled in ${Math.round(performance.now() - t0)} ms (${states.join(', ')})`,
        );
      });
    }
    const awaiting = awaitingApproval(resolved.servers);
    // Not awaited: a modal left open must not hold back reloads of other files.
    if (awaiting.length) void this.review(awaiting);
  }

  private async review(defs: ServerDefinition[]): Promise<void> {
    if (await this.deps.approvals.review(defs, { force: false })) await this.readmit();
  }

  /**
   * Every file the loader read or looked for (managed file, other apps' configs, env files) gets a
   * watcher of its own; the glob watcher covers the folders' `.mcp.json` / `.vscode/mcp.json`.
   */
  private watchFiles(all: string[]): void {
    const files = [...new Set(all.filter((f) => f !== '' && (!f.includes(':') || /^[A-Za-z]:[\\/]/.test(f))))].sort();
    const key = files.join('\n');
    if (key === this.watchedExtra) return;
    this.watchedExtra = key;
    for (const d of this.extraWatchers) d.dispose();
    this.extraWatchers = files.map((f) => {
      const uri = vscode.Uri.file(f);
      const w = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop() ?? ''),
      );
      const onFile = (): void => this.scheduleReload();
      w.onDidChange(onFile);
      w.onDidCreate(onFile);
      w.onDidDelete(onFile);
      return w;
    });
  }

  // Actions --------------------------------------------------------------------------------
  /** Start for a held-back server: asks for approval (again, even if once declined), enables, or explains. */
  async approveAndStart(name: string): Promise<boolean> {
    const def = this.definition(name);
    if (!def) return false;
    const held = heldReason(def);
    // Asking to start is the explicit act autoStart waits for, whatever else holds the server.
    const wasManual = this.manual.delete(name);
    if (held === 'untrusted') {
      const pick = await vscode.window.showWarningMessage(
        `"${name}" is defined by this workspace, which is not trusted. Trust the workspace to start its servers.`,
        'Manage Workspace Trust',
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return false;
    }
    if (held === 'not-approved') {
      if (!(await this.deps.approvals.review([def], { force: true }))) return false;
      await this.readmit();
      return true;
    }
    if (held === 'user-disabled') return this.setUserDisabled(name, false).then(() => true);
    if (held === 'manual' || wasManual) {
      await this.readmit();
      return !heldReason(this.definition(name));
    }
    return false;
  }

  isUserDisabled(name: string): boolean {
    return this.deps.workspaceState.get<string[]>(DISABLED_KEY, []).includes(name);
  }

  /** Per-workspace disabled list, for servers whose file we do not edit (managed, discovered, dynamic). */
  async setUserDisabled(name: string, disabled: boolean): Promise<void> {
    const list = new Set(this.deps.workspaceState.get<string[]>(DISABLED_KEY, []));
    if (disabled) list.add(name);
    else list.delete(name);
    await this.deps.workspaceState.update(DISABLED_KEY, [...list]);
    await this.readmit();
  }

  expectSelfAdded(name: string): void {
    this.selfAdded.add(name);
  }

  // Dynamic scope (exported API) -------------------------------------------------------------
  registerDynamic(name: string, entry: unknown): void {
    this.dynamic.set(name, entry);
    this.scheduleReload();
  }

  unregisterDynamic(name: string): boolean {
    const had = this.dynamic.delete(name);
    if (had) this.scheduleReload();
    return had;
  }

  dispose(): void {
    for (const d of [...this.disposables, ...this.extraWatchers]) d.dispose();
    this.changed.dispose();
  }
}
