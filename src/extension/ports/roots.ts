import * as vscode from 'vscode';
import type { RootsPort } from '../../core/host-api.js';
import { Emitter } from '../../core/events.js';

/** Workspace folders as MCP roots; a folder change notifies servers (`roots/list_changed`). */
export function workspaceRoots(): RootsPort & vscode.Disposable {
  const changed = new Emitter<void>();
  const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire());
  return {
    roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
    onDidChange: changed.event,
    dispose() {
      sub.dispose();
      changed.dispose();
    },
  };
}
