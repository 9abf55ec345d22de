/**
 * The `ide/contextUpdate` payload: the files the user focused most recently (newest first, with
 * the time of focus), the active one with its 1-based cursor and selected text. The limits are
 * the interface's (10 files, 16 KiB of selected text), applied here as its VS Code companion
 * does, so no more than the CLI keeps ever leaves the editor.
 */
import { fileURLToPath } from 'node:url';
import type { EditorPort, IdeSelection } from '../editor-port.js';

export const MAX_OPEN_FILES = 10;
export const MAX_SELECTED_TEXT = 16 * 1024;

export interface GeminiOpenFile {
  path: string;
  timestamp: number;
  isActive?: boolean;
  cursor?: { line: number; character: number };
  selectedText?: string;
}

export interface GeminiIdeContext {
  workspaceState: { openFiles: GeminiOpenFile[] };
}

function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Keeps the focus order from selection events; the editor's tabs decide which files still count. */
export class RecentFiles {
  private readonly focusedAt = new Map<string, number>();
  private latest: IdeSelection | undefined;

  constructor(
    private readonly editor: EditorPort,
    private readonly now: () => number = Date.now,
  ) {
    const sel = editor.currentSelection();
    if (sel) this.focus(sel);
  }

  /** A selection event: its file becomes the most recent one. */
  focus(sel: IdeSelection): void {
    this.latest = sel;
    const path = filePathOf(sel.fileUrl);
    if (!path) return;
    // Re-inserting moves the file to the end of the Map: iteration order is focus order.
    this.focusedAt.delete(path);
    this.focusedAt.set(path, this.now());
  }

  snapshot(): GeminiIdeContext {
    const tabs = this.editor.openEditors().filter((e) => !e.isUntitled);
    const open = new Set(tabs.map((e) => filePathOf(e.uri)).filter((p): p is string => p !== undefined));
    // A file closed since it was focused is dropped; a file open but never focused here still counts, oldest.
    for (const path of [...this.focusedAt.keys()]) if (!open.has(path)) this.focusedAt.delete(path);
    const active = this.editor.currentSelection() ?? this.latest;
    const activePath = active ? filePathOf(active.fileUrl) : undefined;
    const files: GeminiOpenFile[] = [...this.focusedAt.entries()]
      .reverse()
      .map(([path, timestamp]) => ({ path, timestamp }));
    for (const path of open) if (!this.focusedAt.has(path)) files.push({ path, timestamp: 0 });
    const kept = files.slice(0, MAX_OPEN_FILES);
    const head = kept[0];
    if (head && active && head.path === activePath && open.has(head.path)) {
      const end = active.selection.end;
      head.isActive = true;
      head.cursor = { line: end.line + 1, character: end.character + 1 };
      if (active.text.length > 0) head.selectedText = active.text.slice(0, MAX_SELECTED_TEXT);
    }
    return { workspaceState: { openFiles: kept } };
  }
}
