/** An in-memory EditorPort for plain-Node tests: records what the server asked and lets the test decide diffs. */
import { Emitter } from '../../../src/core/events.js';
import { withDeadline } from '../../support/wait.js';
import type {
  DiffOutcome,
  DiffRequest,
  DocumentState,
  EditorPort,
  ExecuteOutput,
  IdeFileDiagnostics,
  IdeOpenEditor,
  IdeSelection,
  IdeWorkspaceFolder,
  OpenFileRequest,
  OpenFileResult,
} from '../../../src/core/ide/editor-port.js';

export interface PendingDiff {
  req: DiffRequest;
  signal: AbortSignal;
  decide(outcome: DiffOutcome): void;
}

export class FakeEditor implements EditorPort {
  folders: IdeWorkspaceFolder[] = [{ name: 'proj', uri: 'file:///work/proj', path: '/work/proj' }];
  diags: IdeFileDiagnostics[] = [];
  selection: IdeSelection | undefined;
  editors: IdeOpenEditor[] = [];
  docs = new Map<string, DocumentState>();
  saved: string[] = [];
  closedTabs: string[] = [];
  opened: OpenFileRequest[] = [];
  kernel: ((code: string) => ExecuteOutput[]) | undefined;
  readonly diffs: PendingDiff[] = [];
  private readonly diffWaiters: ((d: PendingDiff) => void)[] = [];
  readonly selectionEmitter = new Emitter<IdeSelection>();
  readonly foldersEmitter = new Emitter<void>();
  readonly onDidChangeSelection = this.selectionEmitter.event;
  readonly onDidChangeWorkspaceFolders = this.foldersEmitter.event;

  workspaceFolders(): IdeWorkspaceFolder[] {
    return this.folders;
  }

  diagnostics(uri?: string): IdeFileDiagnostics[] {
    if (uri === undefined) return this.diags;
    return this.diags.filter((d) => d.uri === uri || d.uri === `file://${uri}`);
  }

  async openFile(req: OpenFileRequest): Promise<OpenFileResult> {
    this.opened.push(req);
    if (req.filePath.includes('missing')) throw new Error(`File not found: ${req.filePath}`);
    return { filePath: req.filePath, languageId: 'typescript', lineCount: 3 };
  }

  openDiff(req: DiffRequest, signal: AbortSignal): Promise<DiffOutcome> {
    return new Promise((resolve) => {
      const d: PendingDiff = { req, signal, decide: resolve };
      this.diffs.push(d);
      for (const w of this.diffWaiters.splice(0)) w(d);
    });
  }

  /** Resolves with the next diff the server opens (or one already open and undecided). */
  nextDiff(): Promise<PendingDiff> {
    return withDeadline(new Promise((resolve) => this.diffWaiters.push(resolve)), 'openDiff request');
  }

  currentSelection(): IdeSelection | undefined {
    return this.selection;
  }

  openEditors(): IdeOpenEditor[] {
    return this.editors;
  }

  documentState(filePath: string): DocumentState | undefined {
    return this.docs.get(filePath);
  }

  async saveDocument(filePath: string): Promise<boolean> {
    if (!this.docs.has(filePath)) return false;
    this.saved.push(filePath);
    this.docs.set(filePath, { isDirty: false, isUntitled: false });
    return true;
  }

  async closeTab(tabName: string): Promise<number> {
    this.closedTabs.push(tabName);
    return 1;
  }

  async closeAllDiffTabs(): Promise<number> {
    return this.diffs.length;
  }

  async executeCode(code: string): Promise<ExecuteOutput[]> {
    if (!this.kernel) throw new Error('executeCode needs an open Jupyter notebook with a kernel; none is active.');
    return this.kernel(code);
  }
}
