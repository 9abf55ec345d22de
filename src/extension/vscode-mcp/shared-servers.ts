/**
 * One copy of each server when VS Code runs the workspace's servers itself (see shared-plan.ts).
 * Once per trusted workspace that has such servers, MCP Host asks who should run them and writes
 * the answer as the workspace setting `mcpHost.sharedServers` (VS Code's own writer edits
 * .vscode/settings.json in place, comments kept), with an Undo. The choice is read at every
 * admission, so a change in the Settings editor applies at once.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import { hasProviderApi } from '../gateway/provider.js';
import { editorReads, leftToEditor, parseChoice, readByEditor, type SharedServersChoice } from './shared-plan.js';

const OFFERED_KEY = 'mcpHost.sharedServers.offered';
const LEAVE = 'Leave Them to VS Code';
const BOTH = 'Run Them in Both';
const UNDO = 'Undo';

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function choice(): SharedServersChoice {
  return parseChoice(vscode.workspace.getConfiguration('mcpHost').get('sharedServers'));
}

function reads(): ReturnType<typeof editorReads> {
  return editorReads(vscode.version, hasProviderApi(), vscode.workspace.getConfiguration('chat.mcp').get('access'));
}

/** What the controller reads and the offer needs: the loaded definitions, and a way to re-admit. */
export interface SharedServersTarget {
  servers(): { definition?: ServerDefinition }[];
  readmit(): Promise<void>;
  onDidChange(listener: (name: string | undefined) => void): { dispose(): void };
}

export class SharedServers implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private offering = false;

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly log: Logger,
  ) {}

  /** Admission's hook (ControllerDeps.leftToEditor). */
  leftToEditor(def: ServerDefinition): boolean {
    return leftToEditor(def, choice(), folders(), reads());
  }

  attach(target: SharedServersTarget): void {
    const r = reads();
    this.log.info(
      `VS Code's own MCP support reads .vscode/mcp.json: ${r.vscodeMcpJson ? 'yes' : 'no'}, .mcp.json: ${r.rootMcpJson ? 'yes' : 'no'}; mcpHost.sharedServers: ${choice()}`,
    );
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mcpHost.sharedServers') || e.affectsConfiguration('chat.mcp.access')) {
          this.log.info(`mcpHost.sharedServers is now ${choice()}`);
          void target.readmit();
        }
      }),
      target.onDidChange((name) => {
        if (name === undefined) void this.offer(target);
      }),
    );
  }

  /** Asks once per workspace, only where it matters: trusted, VS Code reads the files, servers in them. */
  private async offer(target: SharedServersTarget): Promise<void> {
    if (this.offering || choice() !== 'ask' || !vscode.workspace.isTrusted) return;
    if (this.workspaceState.get<boolean>(OFFERED_KEY)) return;
    const fs = folders();
    const r = reads();
    const shared = target
      .servers()
      .map((s) => s.definition)
      .filter((d): d is ServerDefinition => d !== undefined && readByEditor(d, fs, r));
    if (shared.length === 0 || fs.length === 0) return;
    this.offering = true;
    try {
      await this.workspaceState.update(OFFERED_KEY, true);
      const names = shared.map((d) => d.name).join(', ');
      const files = r.rootMcpJson ? '.vscode/mcp.json and .mcp.json' : '.vscode/mcp.json';
      const answer = await vscode.window.showInformationMessage(
        `VS Code runs the servers of ${files} itself (${names}). If MCP Host runs them too, each runs twice and chat lists its tools twice. Leave them to VS Code in this workspace?`,
        LEAVE,
        BOTH,
      );
      if (answer === LEAVE) await this.choose('vscode', shared);
      else if (answer === BOTH) await this.choose('both', shared);
    } finally {
      this.offering = false;
    }
  }

  private async choose(next: SharedServersChoice, shared: ServerDefinition[]): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('mcpHost');
    const before = cfg.inspect<string>('sharedServers')?.workspaceValue;
    await cfg.update('sharedServers', next, vscode.ConfigurationTarget.Workspace);
    this.log.info(`mcpHost.sharedServers set to "${next}" in the workspace settings`);
    const names = shared.map((d) => d.name).join(', ');
    const message =
      next === 'vscode'
        ? `MCP Host leaves ${names} to VS Code and does not start them (workspace setting "mcpHost.sharedServers": "vscode").`
        : `MCP Host runs ${names} too; VS Code starts its own copies when chat needs tools (workspace setting "mcpHost.sharedServers": "both").`;
    if ((await vscode.window.showInformationMessage(message, UNDO)) === UNDO) {
      await vscode.workspace
        .getConfiguration('mcpHost')
        .update('sharedServers', before, vscode.ConfigurationTarget.Workspace);
      await this.workspaceState.update(OFFERED_KEY, undefined);
      this.log.info('mcpHost.sharedServers change undone');
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
