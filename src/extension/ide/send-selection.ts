/**
 * "Send Selection to Agent": an at-mention of the active file and its selected lines for the
 * agents on the IDE server; each way nobody hears it gets its own explanation.
 */
import * as vscode from 'vscode';
import type { IdeServer } from '../../core/ide/index.js';
import { displayPath } from './convert.js';

export function sendSelection(server: IdeServer | undefined, geminiClientCount: () => number): void {
  const active = vscode.window.activeTextEditor;
  if (!active) {
    void vscode.window.showInformationMessage('Open a file to send its selection to the agent.');
    return;
  }
  if (!server) {
    void vscode.window.showWarningMessage(
      'The IDE server is off. Turn on "mcpHost.ideServer.enabled" to share selections with coding agents.',
    );
    return;
  }
  const sel = active.selection;
  // A selection ending at column 0 of the next line is a whole-lines selection; do not count that line.
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  const heard = server.notifyAtMention({
    filePath: displayPath(active.document.uri),
    ...(sel.isEmpty ? {} : { lineStart: sel.start.line, lineEnd: endLine }),
  });
  if (heard === 0 && geminiClientCount() > 0) {
    void vscode.window.showInformationMessage(
      'Gemini CLI follows the active editor by itself: it already has this file and its selection.',
    );
  } else if (heard === 0) {
    void vscode.window.showInformationMessage(
      'No coding agent is connected. Start one (e.g. `claude`) in an integrated terminal; it finds this editor on its own.',
    );
  }
}
