/**
 * The Running Tasks view (`mcpHost.tasks`): every tool call running as a task on a server, with
 * its status and the server's status message; the inline Cancel sends `tasks/cancel`. Shown only
 * while a task runs (context key `mcpHost.hasTasks`), so it costs no space otherwise.
 */
import * as vscode from 'vscode';
import type { RunningTask } from '../../core/features/index.js';
import type { McpHost } from '../../core/host.js';

class TasksProvider implements vscode.TreeDataProvider<RunningTask> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly host: McpHost) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(): RunningTask[] {
    return this.host.features.tasks.list();
  }

  getTreeItem(t: RunningTask): vscode.TreeItem {
    const item = new vscode.TreeItem(`${t.server} / ${t.tool}`, vscode.TreeItemCollapsibleState.None);
    item.description = `${t.status.replace('_', ' ')}${t.statusMessage ? ` · ${t.statusMessage}` : ''}`;
    item.tooltip = `Task ${t.taskId} on ${t.server}, started ${new Date(t.startedAt).toLocaleTimeString()}`;
    item.iconPath = new vscode.ThemeIcon(t.status === 'input_required' ? 'question' : 'sync~spin');
    item.contextValue = 'mcpTask';
    item.id = t.taskId;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The view and the context key that shows it; Cancel is `mcpHost.cancelTask` in the command table. */
export function registerTasksView(host: McpHost): vscode.Disposable[] {
  const provider = new TasksProvider(host);
  const view = vscode.window.createTreeView('mcpHost.tasks', { treeDataProvider: provider });
  const sub = host.features.tasks.onDidChange(() => {
    provider.refresh();
    void vscode.commands.executeCommand('setContext', 'mcpHost.hasTasks', host.features.tasks.list().length > 0);
  });
  return [provider, view, sub];
}
