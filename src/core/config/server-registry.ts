/**
 * The one server registry every front end runs (the editor's controller, each CLI command, `serve`):
 * read every source → keep the last good servers of a broken file → admit → resolve inputs of
 * admitted servers → hand the list on. Re-reads coalesce (a burst of file events is one read, a
 * request during a run is one more run after it); re-admission without reading follows trust,
 * approvals, the disabled list and manual starts. What differs per front end comes in through ports.
 */
import { Emitter } from '../events.js';
import { hostPrivateDirs } from '../user-dir.js';
import { systemClock, type Clock, type Disposable, type InputResolver, type Logger } from '../ports.js';
import { admit, awaitingApproval, heldReason } from './admit.js';
import { approvalHashOf, type ApprovalLookup } from './approvals.js';
import { keepLastGood } from './last-good.js';
import { resolveAdmitted, type ReadConfig } from './load.js';
import type { ConfigProblem, HeldReason, LoadedConfig, ServerDefinition } from './types.js';

/** Approval of project/workspace definitions (name + approval hash). */
export interface ApprovalPort extends ApprovalLookup {
  /** Asks the user once; resolves true when they allowed the servers (which are then approved). */
  review(defs: ServerDefinition[], opts: { force: boolean }): Promise<boolean>;
  approve(defs: ServerDefinition[]): Promise<void>;
}

/** The per-workspace list of servers the user switched off, shared by the editor and the CLI. */
export interface DisabledServersPort {
  names(): readonly string[];
  set(name: string, disabled: boolean): Promise<void>;
}

/** Calls `onChange` when one of `files` (which may not exist yet) is created, changed or deleted. */
export type WatchFiles = (files: readonly string[], onChange: () => void) => Disposable;

export interface ServerRegistryOptions {
  log: Logger;
  /** Reads every source; no gating. `dynamic`: servers registered through the exported API. */
  read(dynamic: ReadonlyMap<string, unknown>): Promise<ReadConfig>;
  /** Receives every admitted and resolved list (the host's `setDefinitions`, or a filter in front of it). */
  apply(servers: ServerDefinition[]): void;
  /** Whether the workspace's own servers may run (VS Code Workspace Trust; the CLI: always, approvals still apply). */
  trusted(): boolean;
  /** Without it no approval is asked for (`mcp-host --allow-project-servers`). */
  approvals?: ApprovalPort;
  disabled?: DisabledServersPort;
  /** For `${input:}` values of admitted servers. */
  inputs?: InputResolver;
  /** Read at the first load: off, what it finds waits for an explicit start. Default on. */
  autoStart?(): boolean;
  /** URLs of the host's own gateways, which admission never lets an entry connect to. */
  ownGateways?(): readonly string[] | Promise<readonly string[]>;
  /** True for a server the editor runs itself and the user left to it (the editor's mcpHost.sharedServers). */
  leftToEditor?: (def: ServerDefinition) => boolean;
  /** True for a server the editor also reads and runs itself when asked (its .vscode/mcp.json, .mcp.json). */
  readByEditor?: (def: ServerDefinition) => boolean;
  /** Files the last read named (managed file, other apps' configs, env files) are watched through this. */
  watchFiles?: WatchFiles;
  /** MCP Host's own secret folders, hidden from sandboxed servers (default: this process's, user-dir.ts). */
  privateDirs?: readonly string[];
  /** How long a burst of change events is collected before one read (default 300 ms). */
  debounceMs?: number;
  clock?: Clock;
}

export class ServerRegistry implements Disposable {
  private readonly changed = new Emitter<void>();
  /** Fires after each admission (new definitions, problems or held reasons). */
  readonly onDidChange = this.changed.event;
  /** The last read (not admitted): what a re-admission starts from. */
  private lastRead: ReadConfig | undefined;
  private current: LoadedConfig = { servers: [], problems: [] };
  private readonly dynamic = new Map<string, unknown>();
  /** Servers the user just added: their first definition needs no prompt. */
  private readonly selfAdded = new Set<string>();
  /** With autoStart off: what the first load found waits for an explicit start. */
  private readonly manual = new Set<string>();
  private loadedOnce = false;
  private running: Promise<void> | undefined;
  private readRequested = false;
  private admitRequested = false;
  private pending: Disposable | undefined;
  private watcher: Disposable | undefined;
  private watchedKey = '';
  private readonly clock: Clock;
  private watchFiles: WatchFiles | undefined;

  constructor(private readonly o: ServerRegistryOptions) {
    this.clock = o.clock ?? systemClock;
    this.watchFiles = o.watchFiles;
  }

  /** The last admitted and resolved result. */
  get config(): LoadedConfig {
    return this.current;
  }

  definitions(): ServerDefinition[] {
    return this.current.servers;
  }

  /** The definition with its admission (resolved when it runs). */
  definition(name: string): ServerDefinition | undefined {
    return this.current.servers.find((d) => d.name === name);
  }

  problems(): ConfigProblem[] {
    return this.current.problems;
  }

  /** Why admission holds the server back, or undefined when it runs. */
  gate(name: string): HeldReason | undefined {
    return heldReason(this.definition(name));
  }

  /** Re-reads every source, then admits. Concurrent calls coalesce into one more run after the current one. */
  reload(): Promise<void> {
    return this.schedule(true);
  }

  /** Admits the last read again (trust, approvals, disabled list, manual start changed): no file is read. */
  readmit(): Promise<void> {
    return this.schedule(false);
  }

  /** A reload once change events stop arriving for `debounceMs`. */
  scheduleReload(): void {
    this.pending?.dispose();
    this.pending = this.clock.setTimeout(() => {
      this.pending = undefined;
      void this.reload();
    }, this.o.debounceMs ?? 300);
  }

  /** Runs a scheduled reload now (a manual refresh), or a reload when none is scheduled. */
  flush(): Promise<void> {
    this.pending?.dispose();
    this.pending = undefined;
    return this.reload();
  }

  private schedule(read: boolean): Promise<void> {
    if (read) this.readRequested = true;
    else this.admitRequested = true;
    this.running ??= (async () => {
      try {
        while (this.readRequested || this.admitRequested) {
          const doRead = this.readRequested || !this.lastRead;
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
      read = await this.o.read(this.dynamic);
    } catch (e) {
      // The loader reports problems rather than throwing; if it throws anyway, keep what runs.
      this.o.log.error(`reading the MCP configuration failed: ${(e as Error).message}`);
      return false;
    }
    this.lastRead = { ...read, servers: keepLastGood(this.lastRead?.servers ?? [], read) };
    if (!this.loadedOnce && this.o.autoStart && !this.o.autoStart()) {
      for (const d of this.lastRead.servers) this.manual.add(d.name);
      this.o.log.info('mcpHost.autoStart is off: servers start when you start them');
    }
    this.loadedOnce = true;
    const approvals = this.o.approvals;
    if (approvals) {
      // Self-added servers are approved as written; the user typed them a moment ago.
      const mine = this.lastRead.servers.filter(
        (d) => this.selfAdded.has(d.name) && approvals.status(d.name, approvalHashOf(d)) !== 'approved',
      );
      if (mine.length) {
        await approvals.approve(mine);
        for (const d of mine) this.selfAdded.delete(d.name);
      }
    }
    return true;
  }

  /** admit → resolve inputs of admitted servers → apply; then asks about servers awaiting approval. */
  private async admitOnce(): Promise<void> {
    const read = this.lastRead;
    if (!read) return;
    const admitted = admit(read.servers, {
      trusted: this.o.trusted(),
      approvals: this.o.approvals,
      userDisabled: new Set(this.o.disabled?.names() ?? []),
      manualStart: this.manual,
      policy: read.policy,
      ownGateways: await this.o.ownGateways?.(),
      leftToEditor: this.o.leftToEditor,
      readByEditor: this.o.readByEditor,
      // The sandbox plan's workspace folders and home (core/config/sandbox-plan.ts).
      folders: read.prepare.vars.folders,
      home: read.prepare.vars.userHome,
      privateDirs: this.o.privateDirs ?? hostPrivateDirs(),
    });
    const resolved = await resolveAdmitted(read, admitted, { inputs: this.o.inputs });
    this.current = resolved;
    this.watch(resolved.files ?? []);
    this.o.apply(resolved.servers);
    this.changed.fire();
    const awaiting = this.o.approvals ? awaitingApproval(resolved.servers) : [];
    // Not awaited: a prompt left open must not hold back reloads of other files.
    if (awaiting.length) void this.review(awaiting);
  }

  private async review(defs: ServerDefinition[]): Promise<void> {
    if (await this.o.approvals?.review(defs, { force: false })) await this.readmit();
  }

  /** Starts watching the files of every read through `watchFiles` (a front end that turns long-running). */
  follow(watchFiles: WatchFiles): void {
    this.watchFiles = watchFiles;
    this.watchedKey = '';
    this.watch(this.current.files ?? []);
  }

  private watch(all: readonly string[]): void {
    if (!this.watchFiles) return;
    const files = [...new Set(all.filter((f) => f !== '' && (!f.includes(':') || /^[A-Za-z]:[\\/]/.test(f))))].sort();
    const key = files.join('\n');
    if (key === this.watchedKey) return;
    this.watchedKey = key;
    this.watcher?.dispose();
    this.watcher = this.watchFiles(files, () => this.scheduleReload());
  }

  // Actions --------------------------------------------------------------------------------

  /**
   * Start for a held-back server: asks for approval again (even if once declined), enables it, or
   * starts a manual one. Returns what still holds it back (`untrusted` needs the front end's own
   * answer), or undefined when it now runs.
   */
  async approveAndStart(name: string): Promise<HeldReason | 'unknown' | undefined> {
    const def = this.definition(name);
    if (!def) return 'unknown';
    const held = heldReason(def);
    // Asking to start is the explicit act autoStart waits for, whatever else holds the server.
    const wasManual = this.manual.delete(name);
    if (held === 'not-approved' && this.o.approvals) {
      if (!(await this.o.approvals.review([def], { force: true }))) return held;
      await this.readmit();
    } else if (held === 'user-disabled') {
      await this.setUserDisabled(name, false);
    } else if (held === 'manual' || wasManual) {
      await this.readmit();
    }
    return heldReason(this.definition(name));
  }

  isUserDisabled(name: string): boolean {
    return this.o.disabled?.names().includes(name) ?? false;
  }

  /** Per-workspace disabled list, for servers whose file is not edited (managed, discovered, dynamic). */
  async setUserDisabled(name: string, disabled: boolean): Promise<void> {
    if (!this.o.disabled) throw new Error('this host keeps no disabled list');
    await this.o.disabled.set(name, disabled);
    await this.readmit();
  }

  expectSelfAdded(name: string): void {
    this.selfAdded.add(name);
  }

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
    this.pending?.dispose();
    this.watcher?.dispose();
    this.changed.dispose();
  }
}
