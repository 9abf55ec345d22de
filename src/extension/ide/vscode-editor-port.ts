/** The IDE server's EditorPort over the VS Code API. */
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import type { Event } from '../../core/events.js';
import {
  type DiffOutcome,
  type DiffRequest,
  type DocumentState,
  type EditorPort,
  type ExecuteOutput,
  findTextRange,
  type IdeFileDiagnostics,
  type IdeOpenEditor,
  type IdeSelection,
  type IdeWorkspaceFolder,
  type OpenFileRequest,
  type OpenFileResult,
} from '../../core/ide/index.js';
import { displayPath, isShareable, parseUriOrPath, toDiagnostic, toRange, toSelection } from './convert.js';
import type { DiffManager } from './diffs.js';
import { executeInActiveNotebook } from './notebook.js';

function findDocument(filePath: string): vscode.TextDocument | undefined {
  const uri = parseUriOrPath(filePath);
  return vscode.workspace.textDocuments.find(
    (d) =>
      d.uri.toString() === uri.toString() ||
      (d.uri.scheme === 'file' && uri.scheme === 'file' && d.uri.fsPath === uri.fsPath),
  );
}

export class VsCodeEditorPort implements EditorPort {
  readonly onDidChangeWorkspaceFolders: Event<void> = (listener) =>
    vscode.workspace.onDidChangeWorkspaceFolders(() => listener());

  readonly onDidChangeSelection: Event<IdeSelection> = (listener) => {
    const emit = (editor: vscode.TextEditor | undefined): void => {
      if (editor && isShareable(editor.document.uri)) listener(toSelection(editor));
    };
    const subs = [
      vscode.window.onDidChangeTextEditorSelection((e) => emit(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor(emit),
    ];
    return { dispose: () => subs.forEach((s) => s.dispose()) };
  };

  constructor(private readonly diffs: DiffManager) {}

  workspaceFolders(): IdeWorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      name: f.name,
      uri: f.uri.toString(),
      path: displayPath(f.uri),
    }));
  }

  diagnostics(uri?: string): IdeFileDiagnostics[] {
    if (uri !== undefined) {
      const target = parseUriOrPath(uri);
      return [{ uri: target.toString(), diagnostics: vscode.languages.getDiagnostics(target).map(toDiagnostic) }];
    }
    return vscode.languages
      .getDiagnostics()
      .filter(([, list]) => list.length > 0)
      .map(([u, list]) => ({ uri: u.toString(), diagnostics: list.map(toDiagnostic) }));
  }

  async openFile(req: OpenFileRequest): Promise<OpenFileResult> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    let uri: vscode.Uri;
    if (/^[a-zA-Z][a-zA-Z0-9+.-]+:\/\//.test(req.filePath)) uri = vscode.Uri.parse(req.filePath, true);
    else if (isAbsolute(req.filePath)) uri = vscode.Uri.file(req.filePath);
    else if (folder) uri = vscode.Uri.joinPath(folder.uri, req.filePath);
    else uri = vscode.Uri.file(join(process.cwd(), req.filePath));
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      throw new Error(`File not found: ${displayPath(uri)}`);
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const found = findTextRange(doc.getText(), req.startText, req.endText, req.selectToEndOfLine);
    const selection = found
      ? new vscode.Range(found.start.line, found.start.character, found.end.line, found.end.character)
      : undefined;
    const editor = await vscode.window.showTextDocument(doc, {
      preview: req.preview,
      preserveFocus: !req.makeFrontmost,
      selection,
    });
    if (selection) editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return { filePath: displayPath(doc.uri), languageId: doc.languageId, lineCount: doc.lineCount };
  }

  openDiff(req: DiffRequest, signal: AbortSignal): Promise<DiffOutcome> {
    return this.diffs.open(req, signal);
  }

  currentSelection(): IdeSelection | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor && isShareable(editor.document.uri) ? toSelection(editor) : undefined;
  }

  openEditors(): IdeOpenEditor[] {
    const out: IdeOpenEditor[] = [];
    vscode.window.tabGroups.all.forEach((group, groupIndex) => {
      for (const tab of group.tabs) {
        if (!(tab.input instanceof vscode.TabInputText)) continue;
        const uri = tab.input.uri;
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        const visible = vscode.window.visibleTextEditors.find(
          (e) => e.document.uri.toString() === uri.toString() && e.viewColumn === group.viewColumn,
        );
        out.push({
          uri: uri.toString(),
          isActive: tab.isActive && group.isActive,
          isPinned: tab.isPinned,
          isPreview: tab.isPreview,
          isDirty: tab.isDirty,
          label: tab.label,
          groupIndex,
          viewColumn: group.viewColumn,
          isGroupActive: group.isActive,
          fileName: displayPath(uri),
          languageId: doc?.languageId,
          lineCount: doc?.lineCount,
          isUntitled: uri.scheme === 'untitled',
          selection: visible ? toRange(visible.selection) : undefined,
        });
      }
    });
    return out;
  }

  documentState(filePath: string): DocumentState | undefined {
    const doc = findDocument(filePath);
    return doc ? { isDirty: doc.isDirty, isUntitled: doc.isUntitled } : undefined;
  }

  async saveDocument(filePath: string): Promise<boolean> {
    const doc = findDocument(filePath);
    if (!doc) return false;
    if (!(await doc.save()) && doc.isDirty) throw new Error(`Saving ${filePath} failed`);
    return true;
  }

  async closeTab(tabName: string): Promise<number> {
    const n = await this.diffs.closeByName(tabName);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === tabName);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    return n + tabs.length;
  }

  closeAllDiffTabs(): Promise<number> {
    return this.diffs.closeAll();
  }

  executeCode(code: string, signal: AbortSignal): Promise<ExecuteOutput[]> {
    return executeInActiveNotebook(code, signal);
  }
}
