/**
 * The command table: every command id the extension contributes (package.json
 * `contributes.commands`; a unit test keeps the two equal) and the one place they are registered
 * (rust-analyzer style): each module hands in its handlers, `registerCommandTable` wires them.
 */
import * as vscode from 'vscode';

import type { CommandId } from './command-ids.js';

export type { CommandId } from './command-ids.js';
export type CommandHandler = (...args: unknown[]) => unknown;
export type CommandTable = Record<CommandId, CommandHandler>;

/** Registers every handler; a failure is shown by `onError` (one place for every command). */
export function registerCommandTable(
  table: CommandTable,
  onError: (id: CommandId, e: unknown) => void,
): vscode.Disposable[] {
  return (Object.keys(table) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await table[id](...args);
      } catch (e) {
        onError(id, e);
      }
    }),
  );
}
