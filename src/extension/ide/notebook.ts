/**
 * `executeCode`: runs code as a new cell of the active Jupyter notebook, in whatever kernel the
 * notebook has selected. VS Code has no API to ask whether a kernel is selected, so a cell that
 * does not start running in time is reported as "no kernel".
 */
import * as vscode from 'vscode';
import type { ExecuteOutput } from '../../core/ide/index.js';

const START_TIMEOUT_MS = 30_000;

const NO_KERNEL =
  'executeCode needs an open Jupyter notebook with a running kernel. Open a notebook (.ipynb) in the editor, select a kernel, and try again.';

function outputsOf(cell: vscode.NotebookCell): ExecuteOutput[] {
  const out: ExecuteOutput[] = [];
  const decode = (d: Uint8Array): string => Buffer.from(d).toString('utf8');
  for (const o of cell.outputs) {
    const by = new Map(o.items.map((i) => [i.mime, i.data]));
    const png = by.get('image/png');
    const err = by.get('application/vnd.code.notebook.error');
    const plain =
      by.get('text/plain') ??
      by.get('application/vnd.code.notebook.stdout') ??
      by.get('application/vnd.code.notebook.stderr');
    if (png) out.push({ type: 'image', mimeType: 'image/png', data: Buffer.from(png).toString('base64') });
    else if (err) {
      const e = JSON.parse(decode(err)) as { name?: string; message?: string; stack?: string };
      out.push({ type: 'text', text: `${e.name ?? 'Error'}: ${e.message ?? ''}${e.stack ? `\n${e.stack}` : ''}` });
    } else if (plain) out.push({ type: 'text', text: decode(plain) });
  }
  return out;
}

export async function executeInActiveNotebook(code: string, signal: AbortSignal): Promise<ExecuteOutput[]> {
  const editor = vscode.window.activeNotebookEditor;
  if (!editor || editor.notebook.notebookType !== 'jupyter-notebook') throw new Error(NO_KERNEL);
  const notebook = editor.notebook;
  const index = notebook.cellCount;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [
    vscode.NotebookEdit.insertCells(index, [new vscode.NotebookCellData(vscode.NotebookCellKind.Code, code, 'python')]),
  ]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('Could not add a cell to the active notebook.');
  const cell = notebook.cellAt(index);

  const finished = new Promise<void>((resolve, reject) => {
    let started = false;
    const startTimer = setTimeout(() => {
      if (!started) done(new Error(NO_KERNEL));
    }, START_TIMEOUT_MS);
    const sub = vscode.workspace.onDidChangeNotebookDocument((e) => {
      for (const c of e.cellChanges) {
        if (c.cell !== cell) continue;
        if (c.executionSummary?.timing?.startTime !== undefined || c.executionSummary?.executionOrder !== undefined)
          started = true;
        if (c.executionSummary?.timing?.endTime !== undefined) done();
      }
    });
    const onAbort = (): void => {
      void vscode.commands.executeCommand('notebook.cell.cancelExecution', {
        ranges: [{ start: index, end: index + 1 }],
        document: notebook.uri,
      });
      done(new Error('Cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    function done(err?: Error): void {
      clearTimeout(startTimer);
      sub.dispose();
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve();
    }
  });
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: index, end: index + 1 }],
    document: notebook.uri,
  });
  await finished;
  return outputsOf(cell);
}
