import type * as vscode from 'vscode';
import type { KeyValueStore } from '../../core/ports.js';

/** The core's KeyValueStore over a Memento (workspaceState or globalState). */
export function mementoStore(memento: vscode.Memento): KeyValueStore {
  return {
    get: <T>(key: string) => memento.get<T>(key),
    update: async (key, value) => memento.update(key, value),
  };
}
