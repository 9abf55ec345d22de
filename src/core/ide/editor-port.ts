/**
 * What the IDE server needs from the editor. The VS Code adapter lives in
 * src/extension/ide/vscode-editor-port.ts; tests use a small in-memory fake. Every position is
 * 0-based (line and character), as VS Code and the IDE protocol both count.
 */
import type { Event } from '../events.js';

export interface IdePosition {
  line: number;
  character: number;
}

export interface IdeRange {
  start: IdePosition;
  end: IdePosition;
}

export type IdeSeverity = 'Error' | 'Warning' | 'Info' | 'Hint';

export interface IdeDiagnostic {
  message: string;
  severity: IdeSeverity;
  range: IdeRange;
  source?: string;
  code?: string | number;
}

/** The diagnostics of one document; `uri` is a `file://` URI string (or another scheme for virtual docs). */
export interface IdeFileDiagnostics {
  uri: string;
  diagnostics: IdeDiagnostic[];
}

/** A selection as `getCurrentSelection` and `selection_changed` carry it. */
export interface IdeSelection {
  text: string;
  filePath: string;
  fileUrl: string;
  selection: IdeRange & { isEmpty: boolean };
}

export interface IdeWorkspaceFolder {
  name: string;
  uri: string;
  path: string;
}

/** One editor tab as `getOpenEditors` lists it. */
export interface IdeOpenEditor {
  uri: string;
  isActive: boolean;
  isPinned: boolean;
  isPreview: boolean;
  isDirty: boolean;
  label: string;
  groupIndex: number;
  viewColumn?: number;
  isGroupActive: boolean;
  fileName: string;
  languageId?: string;
  lineCount?: number;
  isUntitled: boolean;
  selection?: IdeRange;
}

export interface OpenFileRequest {
  /** Absolute path, or relative to the first workspace folder. */
  filePath: string;
  preview: boolean;
  /** Select from the first occurrence of `startText` to the end of the first `endText` after it. */
  startText?: string;
  endText?: string;
  selectToEndOfLine: boolean;
  /** false: open in the background without taking focus. */
  makeFrontmost: boolean;
}

export interface OpenFileResult {
  /** The absolute path that was opened. */
  filePath: string;
  languageId?: string;
  lineCount?: number;
}

export interface DiffRequest {
  oldFilePath: string;
  newFilePath: string;
  newFileContents: string;
  tabName: string;
}

/**
 * How a diff ended. `accepted` carries the contents written to `newFilePath` (the user may have
 * edited the proposal before accepting); `closed` means the tab went away without a decision.
 */
export type DiffOutcome =
  | { kind: 'accepted'; contents: string }
  | { kind: 'rejected' }
  /** `contents`: the proposal as it stood when the agent closed the diff (Gemini CLI's closeDiff returns it). */
  | { kind: 'closed'; contents?: string };

export interface DocumentState {
  isDirty: boolean;
  isUntitled: boolean;
}

/** One output of executed notebook code, already reduced to text or an image. */
export type ExecuteOutput = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

/** All editor access of the IDE server goes through this port. */
export interface EditorPort {
  workspaceFolders(): IdeWorkspaceFolder[];
  /** Fires when workspace folders change, so the lock file can be rewritten. */
  readonly onDidChangeWorkspaceFolders: Event<void>;

  /** Diagnostics of one document (`uri`: a URI string or an absolute path) or, without it, of every document that has some. */
  diagnostics(uri?: string): IdeFileDiagnostics[];

  openFile(req: OpenFileRequest): Promise<OpenFileResult>;

  /**
   * Shows a diff editor with Accept/Reject and resolves when the user decides or closes it.
   * When `signal` aborts (the agent disconnected or cancelled), the port closes the diff and
   * resolves `closed`.
   */
  openDiff(req: DiffRequest, signal: AbortSignal): Promise<DiffOutcome>;

  /** The selection of the active text editor; undefined when no text editor is active. */
  currentSelection(): IdeSelection | undefined;
  /** Fires on every selection or active-editor change (the server debounces). */
  readonly onDidChangeSelection: Event<IdeSelection>;

  openEditors(): IdeOpenEditor[];

  /** undefined when the document is not open. */
  documentState(filePath: string): DocumentState | undefined;
  /** Saves an open document; resolves false when it is not open, throws when saving failed. */
  saveDocument(filePath: string): Promise<boolean>;

  /** Closes tabs labelled `tabName` (and diffs opened under that name); resolves how many closed. */
  closeTab(tabName: string): Promise<number>;
  /** Closes every diff tab this server opened; resolves how many closed. */
  closeAllDiffTabs(): Promise<number>;

  /**
   * Runs code in the active notebook's kernel. Throws an Error with a user-facing message when
   * no notebook kernel is available.
   */
  executeCode(code: string, signal: AbortSignal): Promise<ExecuteOutput[]>;
}
