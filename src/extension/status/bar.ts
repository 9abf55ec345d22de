import * as vscode from 'vscode';
import type { TreeSource } from '../tree/tree-source.js';
import { statusView } from './model.js';

/** `$(plug) connected/total`; warning background when something needs the user; click focuses the tree. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly sub: { dispose(): void };

  constructor(private readonly source: TreeSource) {
    this.item.name = 'MCP Host';
    this.item.command = 'mcpHost.servers.focus';
    this.update();
    this.item.show();
    this.sub = source.onDidChange(() => this.update());
  }

  update(): void {
    const v = statusView(this.source.servers(), this.source.problems());
    this.item.text = v.text;
    const md = new vscode.MarkdownString(v.tooltip, true);
    this.item.tooltip = md;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = {
      label: `MCP Host: ${v.text.replace('$(plug) ', '')} servers connected${v.problems.length ? `, ${v.problems.length} problems` : ''}`,
    };
  }

  dispose(): void {
    this.sub.dispose();
    this.item.dispose();
  }
}
