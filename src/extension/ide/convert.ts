/** VS Code values → the IDE protocol's plain shapes (0-based positions, severity names). */
import * as vscode from 'vscode';
import type { IdeDiagnostic, IdeRange, IdeSelection, IdeSeverity } from '../../core/ide/index.js';

const SEVERITY: Record<vscode.DiagnosticSeverity, IdeSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'Error',
  [vscode.DiagnosticSeverity.Warning]: 'Warning',
  [vscode.DiagnosticSeverity.Information]: 'Info',
  [vscode.DiagnosticSeverity.Hint]: 'Hint',
};

/** Documents an agent can make sense of; output panels and settings editors are text editors too. */
export function isShareable(uri: vscode.Uri): boolean {
  return (
    uri.scheme === 'file' ||
    uri.scheme === 'untitled' ||
    uri.scheme === 'vscode-remote' ||
    uri.scheme === 'vscode-notebook-cell'
  );
}

export function toRange(r: vscode.Range): IdeRange {
  return {
    start: { line: r.start.line, character: r.start.character },
    end: { line: r.end.line, character: r.end.character },
  };
}

export function toDiagnostic(d: vscode.Diagnostic): IdeDiagnostic {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return {
    message: d.message,
    severity: SEVERITY[d.severity] ?? 'Error',
    range: toRange(d.range),
    ...(d.source !== undefined ? { source: d.source } : {}),
    ...(code !== undefined ? { code } : {}),
  };
}

/** A path for the agent: the file system path for files, the URI string otherwise. */
export function displayPath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

export function toSelection(editor: vscode.TextEditor): IdeSelection {
  const sel = editor.selection;
  return {
    text: editor.document.getText(sel),
    filePath: displayPath(editor.document.uri),
    fileUrl: editor.document.uri.toString(),
    selection: { ...toRange(sel), isEmpty: sel.isEmpty },
  };
}

/** Accepts what agents send: a `file://` URI string, another URI, or a plain path. */
export function parseUriOrPath(value: string): vscode.Uri {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:\/\//.test(value) || value.startsWith('untitled:'))
    return vscode.Uri.parse(value, true);
  return vscode.Uri.file(value);
}
