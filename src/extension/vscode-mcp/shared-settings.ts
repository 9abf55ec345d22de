/**
 * The editor's facts and the two workspace settings the core's shared-servers.ts decides from:
 * `mcpHost.sharedServers` (all of them) and `mcpHost.sharedServersPerServer` (one by name). Both are
 * written with VS Code's own writer (.vscode/settings.json edited in place, comments kept), so the
 * choice survives a reload, travels with the folder and shows in the Settings editor.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/index.js';
import {
  editorReads,
  parseChoice,
  parsePerServer,
  type EditorReads,
  type PerServerChoices,
  type SharedChoices,
  type SharedServersChoice,
} from '../../core/config/index.js';
import { hasProviderApi } from '../gateway/provider.js';

export function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export function choices(): SharedChoices {
  const cfg = vscode.workspace.getConfiguration('mcpHost');
  return {
    workspace: parseChoice(cfg.get('sharedServers')),
    perServer: parsePerServer(cfg.get('sharedServersPerServer')),
  };
}

export function reads(): EditorReads {
  return editorReads(vscode.version, hasProviderApi(), vscode.workspace.getConfiguration('chat.mcp').get('access'));
}

export function affectsChoice(e: vscode.ConfigurationChangeEvent): boolean {
  return (
    e.affectsConfiguration('mcpHost.sharedServers') ||
    e.affectsConfiguration('mcpHost.sharedServersPerServer') ||
    e.affectsConfiguration('chat.mcp.access')
  );
}

/** The workspace values before a change, for Undo. */
export interface ChoiceSnapshot {
  workspace: unknown;
  perServer: unknown;
}

export function snapshot(): ChoiceSnapshot {
  const cfg = vscode.workspace.getConfiguration('mcpHost');
  return {
    workspace: cfg.inspect('sharedServers')?.workspaceValue,
    perServer: cfg.inspect('sharedServersPerServer')?.workspaceValue,
  };
}

export async function writeWorkspaceChoice(next: SharedServersChoice | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('mcpHost')
    .update('sharedServers', next, vscode.ConfigurationTarget.Workspace);
}

/** `undefined` removes the setting from the workspace. */
export async function writePerServer(next: PerServerChoices | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('mcpHost')
    .update('sharedServersPerServer', next, vscode.ConfigurationTarget.Workspace);
}

export async function restore(s: ChoiceSnapshot): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('mcpHost');
  await cfg.update('sharedServers', s.workspace, vscode.ConfigurationTarget.Workspace);
  await cfg.update('sharedServersPerServer', s.perServer, vscode.ConfigurationTarget.Workspace);
}

/** Which files the offer names. */
export function filesText(r: EditorReads): string {
  return r.rootMcpJson ? '.vscode/mcp.json and .mcp.json' : '.vscode/mcp.json';
}

export type Definitions = () => ServerDefinition[];
