/**
 * `dev.watch`: a file watcher per server with watch globs. A change restarts that server alone,
 * once writes have settled (a quiet period after the last event, so a build that writes many
 * files is not interrupted halfway), and the server's log and the status bar say what changed in
 * its tools, resources and prompts.
 */
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import type { ServerSnapshot } from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import type { ServerDefinition } from '../../core/config/index.js';
import { type DiffableLists, diffLists, summarizeChanges } from '../../core/dev/index.js';
import type { Logger } from '../../core/ports.js';
import { debounce, type Debounced } from '../config/debounce.js';

interface Watched {
  key: string;
  disposables: vscode.Disposable[];
  restart: Debounced;
  changed: Set<string>;
}

export interface DevWatchDeps {
  host: McpHost;
  log: (server: string) => Logger;
  /** Quiet period in ms after the last file event before restarting. */
  settleMs: () => number;
}

function listsOf(s: ServerSnapshot): DiffableLists {
  return { tools: s.tools, resources: s.resources, resourceTemplates: s.resourceTemplates, prompts: s.prompts };
}

/** The folder globs are relative to: the server's cwd, else its workspace folder, else its config file's folder. */
export function watchBase(def: ServerDefinition): string | undefined {
  const c = def.config;
  if (c.type === 'stdio' && c.cwd) return c.cwd;
  if (def.source.folder) return def.source.folder;
  if (def.source.file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(def.source.file)) return dirname(def.source.file);
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export class DevWatcher implements vscode.Disposable {
  private readonly watched = new Map<string, Watched>();
  /** Lists of each server's last connection: what a restart is compared with. */
  private readonly lastLists = new Map<string, DiffableLists>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly sub: vscode.Disposable;
  private readonly changedEmitter = new vscode.EventEmitter<{ server: string; summary: string }>();
  /** Fires after each dev restart with the summary of what changed. */
  readonly onDidRestart = this.changedEmitter.event;
  private readonly summaries = new Map<string, string>();

  constructor(private readonly deps: DevWatchDeps) {
    this.sub = deps.host.onDidChangeServer((e) => {
      if (e.snapshot?.state.kind === 'connected') this.lastLists.set(e.name, listsOf(e.snapshot));
    });
  }

  /** The last "what changed" line of a server, for the tree's tooltip. */
  lastChange(server: string): string | undefined {
    return this.summaries.get(server);
  }

  /** Called with every definition list the host gets: (re)creates watchers where `dev.watch` changed. */
  update(defs: readonly ServerDefinition[]): void {
    const seen = new Set<string>();
    for (const def of defs) {
      const c = def.config;
      const globs = c.type === 'stdio' && !c.disabled ? (c.dev?.watch ?? []) : [];
      const base = globs.length ? watchBase(def) : undefined;
      if (!base) continue;
      seen.add(def.name);
      const key = JSON.stringify([base, globs]);
      if (this.watched.get(def.name)?.key === key) continue;
      this.drop(def.name);
      this.watch(def.name, base, globs, key);
    }
    for (const name of [...this.watched.keys()]) if (!seen.has(name)) this.drop(name);
  }

  private watch(server: string, base: string, globs: string[], key: string): void {
    const changed = new Set<string>();
    const restart = debounce(() => {
      const files = [...changed];
      changed.clear();
      void this.restart(server, files);
    }, this.deps.settleMs());
    const onEvent = (uri: vscode.Uri): void => {
      changed.add(vscode.workspace.asRelativePath(uri, false));
      restart();
    };
    const disposables: vscode.Disposable[] = [];
    for (const g of globs) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), g));
      disposables.push(w, w.onDidChange(onEvent), w.onDidCreate(onEvent), w.onDidDelete(onEvent));
    }
    this.watched.set(server, { key, disposables, restart, changed });
    this.deps.log(server).info(`dev: watching ${globs.join(', ')} in ${base}`);
  }

  private drop(server: string): void {
    const w = this.watched.get(server);
    if (!w) return;
    w.restart.dispose();
    for (const d of w.disposables) d.dispose();
    this.watched.delete(server);
  }

  private async restart(server: string, files: string[]): Promise<void> {
    // A change during a restart waits for it, then restarts again with the newest files.
    const prior = this.running.get(server);
    const run = (async () => {
      await prior?.catch(() => undefined);
      const log = this.deps.log(server);
      const snap = this.deps.host.server(server);
      if (!snap) return;
      if (snap.state.kind === 'disabled') {
        log.info(`dev: ${describeFiles(files)} changed; not restarting a stopped server`);
        return;
      }
      const before = snap.state.kind === 'connected' ? listsOf(snap) : this.lastLists.get(server);
      log.info(`dev: ${describeFiles(files)} changed; restarting`);
      await this.deps.host.restart(server);
      const after = this.deps.host.server(server);
      if (after?.state.kind !== 'connected') {
        log.warn(`dev: restarted, but the server is ${after?.state.kind ?? 'gone'}; see the lines above`);
        return;
      }
      const summary = before ? summarizeChanges(diffLists(before, listsOf(after))) : 'connected';
      this.summaries.set(server, summary);
      log.info(`dev: restarted: ${summary}`);
      vscode.window.setStatusBarMessage(`$(sync) ${server}: ${summary}`, 8000);
      this.changedEmitter.fire({ server, summary });
    })();
    this.running.set(server, run);
    try {
      await run;
    } finally {
      if (this.running.get(server) === run) this.running.delete(server);
    }
  }

  dispose(): void {
    for (const name of [...this.watched.keys()]) this.drop(name);
    this.sub.dispose();
    this.changedEmitter.dispose();
  }
}

function describeFiles(files: string[]): string {
  if (files.length === 0) return 'a watched file';
  return files.length > 3 ? `${files.slice(0, 3).join(', ')} and ${files.length - 3} more` : files.join(', ');
}
