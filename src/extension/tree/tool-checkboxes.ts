/**
 * Checkboxes on tool rows: ticked = enabled. Unticking hides the tool from the Call Tool pick, the
 * exported API and the CLI (core ToolFilter, stored per workspace). The tree keeps showing it,
 * unticked and marked "off", so it can be switched back on.
 */
import * as vscode from 'vscode';
import type { ToolFilter } from '../../core/tools/index.js';
import type { TreeNode } from './nodes.js';

/**
 * Decorates a tool row with its checkbox, and a server's Tools folder with how many are off (the
 * provider calls this from getTreeItem; `toolNames` are the server's current tools).
 */
export function applyToolCheckbox(
  item: vscode.TreeItem,
  node: TreeNode,
  filter: ToolFilter | undefined,
  toolNames: () => string[] = () => [],
): void {
  if (!filter) return;
  if (node.type === 'category' && node.kind === 'tools') {
    const names = new Set(toolNames());
    const off = filter.disabledTools(node.server).filter((t) => names.has(t)).length;
    if (off) item.description = `${String(item.description ?? '')}, ${off} off`;
    return;
  }
  if (node.type !== 'tool') return;
  const on = filter.isEnabled(node.server, node.tool);
  item.checkboxState = {
    state: on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
    tooltip: on
      ? 'Enabled: offered in Call Tool and to other tools. Untick to hide it.'
      : 'Disabled in this workspace. Tick to offer it again.',
  };
  if (!on) item.description = item.description ? `off · ${String(item.description)}` : 'off';
}

/** Writes the user's ticks to the filter. */
export function bindToolCheckboxes(
  view: vscode.TreeView<TreeNode>,
  filter: ToolFilter,
  log: { warn(m: string): void },
): vscode.Disposable {
  return view.onDidChangeCheckboxState((e) => {
    for (const [node, state] of e.items) {
      if (node.type !== 'tool') continue;
      filter
        .setEnabled(node.server, node.tool, state === vscode.TreeItemCheckboxState.Checked)
        .catch((err: unknown) => {
          log.warn(
            `could not remember the choice for tool ${node.tool} of ${node.server}: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
    }
  });
}
