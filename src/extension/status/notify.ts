import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/host-api.js';
import { type ConfigProblem, heldReason } from '../../core/config/index.js';
import { NoticeDeduper, noticeForProblem, noticeForServer, type Notice } from './notices.js';

/**
 * Notifications for failures only the user can fix, each with the action that fixes it; the
 * deduper makes sure a server that keeps failing the same way is reported once.
 */
export class Notifier {
  private readonly dedupe = new NoticeDeduper();

  onServer(name: string, snapshot: ServerSnapshot | undefined): void {
    const gated = heldReason(snapshot?.definition) !== undefined;
    const notice = snapshot && !gated ? noticeForServer(snapshot) : undefined;
    const fresh = this.dedupe.take(name, notice, gated ? 'disabled' : snapshot?.state.kind);
    if (fresh) void this.show(fresh, { server: name });
  }

  onProblems(problems: ConfigProblem[]): void {
    const denied = new Set<string>();
    for (const p of problems) {
      const n = noticeForProblem(p);
      if (!n) continue;
      denied.add(n.server);
      const fresh = this.dedupe.take(n.server, n, 'failed');
      if (fresh) void this.show(fresh, { file: p.file, jsonPath: p.jsonPath });
    }
    this.dedupe.retain(denied, 'policy:');
  }

  private async show(
    n: Notice,
    target: { server: string } | { file: string; jsonPath: (string | number)[] },
  ): Promise<void> {
    switch (n.kind) {
      case 'needs-auth': {
        const pick = await vscode.window.showWarningMessage(
          `MCP server "${n.server}" needs you to sign in.`,
          'Authenticate',
          'Show Logs',
        );
        if (pick === 'Authenticate') await vscode.commands.executeCommand('mcpHost.authenticate', target);
        if (pick === 'Show Logs') await vscode.commands.executeCommand('mcpHost.showLogs', target);
        return;
      }
      case 'spawn': {
        const pick = await vscode.window.showErrorMessage(
          `MCP server "${n.server}" could not start: ${n.message.split('\n')[0]}`,
          'Open Config',
          'Show Logs',
        );
        if (pick === 'Open Config') await vscode.commands.executeCommand('mcpHost.openConfig', target);
        if (pick === 'Show Logs') await vscode.commands.executeCommand('mcpHost.showLogs', target);
        return;
      }
      case 'policy-denied': {
        const pick = await vscode.window.showWarningMessage(
          `MCP server "${n.server}" is blocked by your organisation's policy: ${n.message.split('\n')[0]}`,
          'Open Config',
        );
        if (pick === 'Open Config') await vscode.commands.executeCommand('mcpHost.openConfig', target);
        return;
      }
    }
  }
}
