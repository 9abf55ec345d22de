/**
 * "Take Back from VS Code" and "Leave to VS Code": one server at a time, written to the workspace
 * setting `mcpHost.sharedServersPerServer` (the core's whoRuns reads it first). Taking one back also
 * stops VS Code's own running copy, so the server does not run twice the moment MCP Host starts it.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import { editorServerIds, whoRuns, withRunner, type ServerRunner } from '../../core/config/index.js';
import { choices, folders, reads, writePerServer } from './shared-settings.js';

/** The loaded definitions and a way to re-admit them (the config controller). */
export interface SharedTarget {
  servers(): { name: string; definition?: ServerDefinition }[];
  readmit(): Promise<void>;
}

/** A tree row (ServerNode: `{ server }`), a name, or nothing (the palette: pick one). */
function nameOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { server?: unknown }).server === 'string')
    return (arg as { server: string }).server;
  return undefined;
}

/** The server the command is for, among those run by `from` now; asks in a quick pick from the palette. */
async function pick(target: SharedTarget, arg: unknown, from: ServerRunner): Promise<ServerDefinition | undefined> {
  const c = choices();
  const fs = folders();
  const r = reads();
  const candidates = target
    .servers()
    .map((s) => s.definition)
    .filter((d): d is ServerDefinition => d !== undefined && whoRuns(d, c, fs, r) === from);
  const name = nameOf(arg);
  const where = from === 'vscode' ? 'left to VS Code' : 'run by MCP Host that VS Code also runs';
  if (name !== undefined) {
    const def = candidates.find((d) => d.name === name);
    if (!def) void vscode.window.showInformationMessage(`"${name}" is not a server ${where}.`);
    return def;
  }
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`No server of this workspace is ${where}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((d) => ({ label: d.name, description: d.source.file, def: d })),
    { title: from === 'vscode' ? 'Take Back from VS Code' : 'Leave to VS Code', placeHolder: 'Server' },
  );
  return picked?.def;
}

/** Stops VS Code's own copy (workbench.mcp.stopServer; an unknown id is a no-op there). */
async function stopEditorCopy(def: ServerDefinition, log: Logger): Promise<void> {
  for (const id of editorServerIds(def, folders())) {
    try {
      await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
    } catch (e) {
      log.info(
        `Could not stop VS Code's own copy of ${def.name} (${id}): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
}

export async function takeBackFromVSCode(target: SharedTarget, log: Logger, arg: unknown): Promise<void> {
  const def = await pick(target, arg, 'vscode');
  if (!def) return;
  // VS Code's copy first: once the setting is written, MCP Host starts its own at once.
  await stopEditorCopy(def, log);
  await writePerServer(withRunner(choices().perServer, def.name, 'mcpHost'));
  log.info(`${def.name}: taken back from VS Code (mcpHost.sharedServersPerServer)`);
  void vscode.window.showInformationMessage(
    `MCP Host runs ${def.name} now and stopped VS Code's own copy. If chat makes VS Code start its copy again, ${def.name} runs twice: use Leave to VS Code to go back (workspace setting "mcpHost.sharedServersPerServer").`,
  );
}

export async function leaveToVSCode(target: SharedTarget, log: Logger, arg: unknown): Promise<void> {
  const def = await pick(target, arg, 'mcpHost');
  if (!def) return;
  await writePerServer(withRunner(choices().perServer, def.name, 'vscode'));
  log.info(`${def.name}: left to VS Code (mcpHost.sharedServersPerServer)`);
  void vscode.window.showInformationMessage(
    `MCP Host stops its copy of ${def.name} and leaves it to VS Code, which starts it when chat needs tools or from MCP: List Servers. Take Back from VS Code in MCP Host's tree runs it here again.`,
  );
}
