import * as vscode from 'vscode';
import type { McpHost, ServerSnapshot } from '../../core/api.js';
import type { ConfigProblem, LoadedConfig, ServerDefinition } from '../../core/config/types.js';
import { Emitter } from '../../core/events.js';
import type { Logger } from '../../core/ports.js';
import type { TreeSource } from '../tree/provider.js';
import type { GateReason } from '../tree/model.js';
import { applyGates, keepLastGood } from './gate.js';
import { debounce } from './debounce.js';
import { approvalHashOf, type ApprovalLookup } from '../../core/trust.js';

/** Approval of project/workspace definitions (name + approval hash), see `../trust.ts`. */
export interface Approvals extends ApprovalLookup {
  /** Shows the one modal prompt; resolves true when the user allowed them (they are then approved). */
  review(defs: ServerDefinition[], opts: { force: boolean }): Promise<boolean>;
  approve(defs: ServerDefinition[]): Promise<void>;
}

export interface ControllerDeps {
  host: McpHost;
  log: Logger;
  /**
   * Reads every source: core loadConfig with the editor's settings, folders, dynamic servers,
   * `trusted` and the approvals, so held-back servers come back disabled with `disabledBy`.
   */
  load(dynamic: ReadonlyMap<string, unknown>): Promise<LoadedConfig>;
  approvals: Approvals;
  workspaceState: vscode.Memento;
}

const DISABLED_KEY = 'mcpHost.disabledServers';

/**
 * Config sources → gates → host. Reloads on file, setting, trust and folder changes (debounced),
 * hands the host the whole list (it restarts only what changed), keeps last good servers of a
 * broken file, and asks for approval of new project servers once per change.
 */
export class ConfigController implements TreeSource, vscode.Disposable {
  private readonly changed = new Emitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private current: LoadedConfig = { servers: [], problems: [] };
  private gates = new Map<string, GateReason>();
  private readonly dynamic = new Map<string, unknown>();
  /** Servers the user just added through `Add Server…`: their first definition needs no prompt. */
  private readonly selfAdded = new Set<string>();
  private running: Promise<void> | undefined;
  private again = false;
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
        if (e.affectsConfiguration('mcpHost.servers') || e.affectsConfiguration('mcpHost.discovery') || e.affectsConfiguration('mcpHost.managedConfigPath')) this.scheduleReload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        deps.log.info('workspace trusted: starting its servers');
        void this.reload();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleReload()),
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.mcp.json,.vscode/mcp.json}');
    const onFile = (): void => this.scheduleReload();
    this.disposables.push(watcher, watcher.onDidChange(onFile), watcher.onDidCreate(onFile), watcher.onDidDelete(onFile));
  }

  // TreeSource -----------------------------------------------------------------------------
  servers(): ServerSnapshot[] {
    return this.deps.host.servers();
  }
  server(name: string): ServerSnapshot | undefined {
    return this.deps.host.server(name);
  }
  gate(name: string): GateReason | undefined {
    return this.gates.get(name);
  }
  problems(): ConfigProblem[] {
    return this.current.problems;
  }

  /** The definition as loaded (not as held back for the host). */
  definition(name: string): ServerDefinition | undefined {
    return this.current.servers.find((d) => d.name === name);
  }


  // Reload ---------------------------------------------------------------------------------
  /** Re-reads every source. Concurrent calls coalesce into one more run after the current one. */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.reloadOnce();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async reloadOnce(): Promise<void> {
    let loaded: LoadedConfig;
    try {
      loaded = await this.deps.load(this.dynamic);
    } catch (e) {
      // The loader reports problems rather than throwing; if it throws anyway, keep what runs.
      this.deps.log.error(`reading the MCP configuration failed: ${(e as Error).message}`);
      return;
    }
    const servers = keepLastGood(this.current.servers, loaded);
    for (const p of loaded.problems) {
      const msg = `${p.file}${p.jsonPath.length ? ` at ${p.jsonPath.join('.')}` : ''}: ${p.message}`;
      if (p.severity === 'error') this.deps.log.warn(`config problem: ${msg}`);
    }
    this.current = { servers, problems: loaded.problems };
    if (!this.loadedOnce && !vscode.workspace.getConfiguration('mcpHost').get<boolean>('autoStart', true)) {
      for (const d of servers) this.manual.add(d.name);
      this.deps.log.info('mcpHost.autoStart is off: servers start when you start them');
    }
    this.loadedOnce = true;
    // Self-added servers are approved as written; the user typed them a moment ago.
    const mine = servers.filter((d) => this.selfAdded.has(d.name) && this.deps.approvals.status(d.name, approvalHashOf(d)) !== 'approved');
    if (mine.length) {
      await this.deps.approvals.approve(mine);
      for (const d of mine) this.selfAdded.delete(d.name);
      // The loader held them back; read again so they come through resolved and ungated.
      this.again = true;
      return;
    }
    const awaiting = this.push();
    this.watchFiles(loaded.files ?? []);
    // Not awaited: a modal left open must not hold back reloads of other files.
    if (awaiting.length) void this.review(awaiting);
  }

  private async review(defs: ServerDefinition[]): Promise<void> {
    if (await this.deps.approvals.review(defs, { force: false })) await this.reload();
  }

  /** Applies gates to the current definitions and hands them to the host. */
  private push(): ServerDefinition[] {
    const userDisabled = new Set(this.deps.workspaceState.get<string[]>(DISABLED_KEY, []));
    const result = applyGates({
      defs: this.current.servers,
      trusted: vscode.workspace.isTrusted,
      approvals: this.deps.approvals,
      userDisabled,
      manual: this.manual,
    });
    this.gates = result.gates;
    const t0 = performance.now();
    this.deps.host.setDefinitions(result.forHost);
    this.changed.fire(undefined);
    const starting = this.deps.host.servers().filter((s) => s.state.kind === 'pending').length;
    if (starting) {
      void this.deps.host.whenSettled().then(() => {
        const states = this.deps.host.servers().map((s) => `${s.name}=${this.gates.get(s.name) ?? s.state.kind}`);
        this.deps.log.info(`${starting} server(s) settled in ${Math.round(performance.now() - t0)} ms (${states.join(', ')})`);
      });
    }
    return result.awaitingApproval;
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
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop() ?? ''));
      const onFile = (): void => this.scheduleReload();
      w.onDidChange(onFile);
      w.onDidCreate(onFile);
      w.onDidDelete(onFile);
      return w;
    });
  }

  // Actions --------------------------------------------------------------------------------
  /** Start for a held-back server: asks for approval (again, even if once declined). */
  async approveAndStart(name: string): Promise<boolean> {
    const def = this.definition(name);
    if (!def) return false;
    const gate = this.gates.get(name);
    if (gate === 'untrusted') {
      const pick = await vscode.window.showWarningMessage(
        `"${name}" is defined by this workspace, which is not trusted. Trust the workspace to start its servers.`,
        'Manage Workspace Trust',
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return false;
    }
    if (gate === 'not-approved') {
      if (!(await this.deps.approvals.review([def], { force: true }))) return false;
      await this.reload();
      return true;
    }
    if (gate === 'user-disabled') return this.setUserDisabled(name, false).then(() => true);
    if (gate === 'manual') {
      this.manual.delete(name);
      const awaiting = this.push();
      if (awaiting.some((d) => d.name === name)) return this.approveAndStart(name);
      return true;
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
    this.push();
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
