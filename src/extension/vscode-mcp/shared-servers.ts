/**
 * One copy of each server when VS Code runs the workspace's servers itself (core/config/shared-servers.ts).
 * Once per trusted workspace that has such servers, MCP Host asks who should run them and writes
 * the answer as the workspace setting `mcpHost.sharedServers`, with an Undo; the same question stays
 * reachable after its toast is gone ("Choose Who Runs the Servers VS Code Also Runs…", in the
 * palette and the tree's title menu). Single servers move with the tree's "Take Back from VS Code"
 * and "Leave to VS Code" (shared-commands.ts). The choices are read at every admission, so a change
 * in the Settings editor applies at once.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import { leftToEditor, readByEditor, withoutServers, type SharedServersChoice } from '../../core/config/index.js';
import type { CommandHandler } from '../command-table.js';
import { leaveToVSCode, takeBackFromVSCode, type SharedTarget } from './shared-commands.js';
import {
  affectsChoice,
  choices,
  filesText,
  folders,
  reads,
  restore,
  snapshot,
  writePerServer,
  writeWorkspaceChoice,
} from './shared-settings.js';

const OFFERED_KEY = 'mcpHost.sharedServers.offered';
const CONTEXT_KEY = 'mcpHost.hasSharedServers';
const LEAVE = 'Leave Them to VS Code';
const BOTH = 'Run Them in Both';
const UNDO = 'Undo';

/** What the controller reads and the offer needs: the loaded definitions, and a way to re-admit. */
export type SharedServersTarget = SharedTarget & {
  onDidChange(listener: (name: string | undefined) => void): { dispose(): void };
};

export class SharedServers implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private offering = false;
  private target: SharedServersTarget | undefined;
  private hasShared: boolean | undefined;

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly log: Logger,
  ) {}

  /** Admission's hook (ControllerDeps.sharedServers). */
  leftToEditor(def: ServerDefinition): boolean {
    return leftToEditor(def, choices(), folders(), reads());
  }

  /** Admission's hook: VS Code runs its own copy of this one when asked. */
  readByEditor(def: ServerDefinition): boolean {
    return vscode.workspace.isTrusted && readByEditor(def, folders(), reads());
  }

  /** The palette's and the tree's commands (main.ts's command table). */
  get commands(): Record<
    'mcpHost.takeBackFromVSCode' | 'mcpHost.leaveToVSCode' | 'mcpHost.chooseSharedServers',
    CommandHandler
  > {
    const target = (): SharedServersTarget => {
      if (!this.target) throw new Error('MCP Host has not loaded its servers yet.');
      return this.target;
    };
    return {
      'mcpHost.takeBackFromVSCode': (arg) => takeBackFromVSCode(target(), this.log, arg),
      'mcpHost.leaveToVSCode': (arg) => leaveToVSCode(target(), this.log, arg),
      'mcpHost.chooseSharedServers': () => this.offer(target(), false),
    };
  }

  attach(target: SharedServersTarget): void {
    this.target = target;
    const r = reads();
    const c = choices();
    this.log.info(
      `VS Code's own MCP support reads .vscode/mcp.json: ${r.vscodeMcpJson ? 'yes' : 'no'}, .mcp.json: ${r.rootMcpJson ? 'yes' : 'no'}; mcpHost.sharedServers: ${c.workspace}, per server: ${JSON.stringify(c.perServer)}`,
    );
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!affectsChoice(e)) return;
        const now = choices();
        this.log.info(`mcpHost.sharedServers is now ${now.workspace}, per server: ${JSON.stringify(now.perServer)}`);
        void target.readmit();
      }),
      target.onDidChange((name) => {
        if (name !== undefined) return;
        this.updateContext(target);
        void this.offer(target, true);
      }),
    );
  }

  private shared(target: SharedServersTarget): ServerDefinition[] {
    const fs = folders();
    const r = reads();
    return target
      .servers()
      .map((s) => s.definition)
      .filter((d): d is ServerDefinition => d !== undefined && readByEditor(d, fs, r));
  }

  /** `mcpHost.hasSharedServers`: the palette and the tree title show the choice only where it applies. */
  private updateContext(target: SharedServersTarget): void {
    const has = vscode.workspace.isTrusted && this.shared(target).length > 0;
    if (has === this.hasShared) return;
    this.hasShared = has;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, has);
  }

  /**
   * `once`: the automatic offer, asked once per workspace and only where it matters (trusted,
   * VS Code reads the files, servers in them, nothing chosen yet). Otherwise the command asks again.
   */
  private async offer(target: SharedServersTarget, once: boolean): Promise<void> {
    if (this.offering) return;
    if (once && (choices().workspace !== 'ask' || this.workspaceState.get<boolean>(OFFERED_KEY))) return;
    const shared = this.shared(target);
    if (!vscode.workspace.isTrusted || shared.length === 0 || folders().length === 0) {
      if (!once)
        void vscode.window.showInformationMessage(
          vscode.workspace.isTrusted
            ? `No server of this workspace is run by VS Code itself (VS Code ${vscode.version} runs those of ${filesText(reads())}).`
            : 'This workspace is not trusted, so neither VS Code nor MCP Host runs its servers.',
        );
      return;
    }
    this.offering = true;
    try {
      await this.workspaceState.update(OFFERED_KEY, true);
      const names = shared.map((d) => d.name).join(', ');
      const answer = await vscode.window.showInformationMessage(
        `VS Code runs the servers of ${filesText(reads())} itself (${names}). If MCP Host runs them too, each runs twice and chat lists its tools twice. Leave them to VS Code in this workspace?`,
        LEAVE,
        BOTH,
      );
      if (answer === LEAVE) await this.choose('vscode', shared);
      else if (answer === BOTH) await this.choose('both', shared);
    } finally {
      this.offering = false;
    }
  }

  /** The answer covers every server it listed: their own per-server entries go. */
  private async choose(next: SharedServersChoice, shared: ServerDefinition[]): Promise<void> {
    const before = snapshot();
    const names = shared.map((d) => d.name);
    await writeWorkspaceChoice(next);
    await writePerServer(withoutServers(choices().perServer, names));
    this.log.info(`mcpHost.sharedServers set to "${next}" in the workspace settings`);
    const list = names.join(', ');
    const message =
      next === 'vscode'
        ? `MCP Host leaves ${list} to VS Code and does not start them (workspace setting "mcpHost.sharedServers": "vscode"). They stay in MCP Host's tree as "run by VS Code", with Take Back from VS Code.`
        : `MCP Host runs ${list} too; VS Code starts its own copies when chat needs tools (workspace setting "mcpHost.sharedServers": "both").`;
    if ((await vscode.window.showInformationMessage(message, UNDO)) === UNDO) {
      await restore(before);
      await this.workspaceState.update(OFFERED_KEY, undefined);
      this.log.info('mcpHost.sharedServers change undone');
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
