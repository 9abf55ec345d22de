/**
 * The diff editors `openDiff` shows: original on the left, the agent's proposal (editable, in
 * memory) on the right, Accept/Reject in the editor title. A promise per diff settles when the
 * user decides, closes the tab, or the agent goes away.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { DiffOutcome, DiffRequest } from '../../core/ide/index.js';
import { PROPOSAL_SCHEME, ProposalFileSystem } from './proposal-fs.js';
import type { ChannelLogger } from '../ports/logger.js';

/** Context key: the active tab is one of our pending diffs (drives the editor-title buttons). */
export const VIEWING_DIFF_KEY = 'mcpHost.ide.viewingProposedDiff';
export const ACCEPT_COMMAND = 'mcpHost.ide.acceptDiff' as const;
export const REJECT_COMMAND = 'mcpHost.ide.rejectDiff' as const;

interface Pending {
  req: DiffRequest;
  left: vscode.Uri;
  right: vscode.Uri;
  settle(outcome: DiffOutcome): void;
}

export class DiffManager implements vscode.Disposable {
  private readonly fs = new ProposalFileSystem();
  private readonly pending = new Map<string, Pending>();
  private readonly disposables: vscode.Disposable[] = [];
  private counter = 0;

  constructor(private readonly log: ChannelLogger) {
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.fs, { isCaseSensitive: true }),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        for (const tab of e.closed) {
          const p = this.pendingOf(tab);
          if (p) this.finish(p, { kind: 'closed' });
        }
        this.updateContext();
      }),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
    );
  }

  /** Shows the diff and resolves with the user's decision. */
  open(req: DiffRequest, signal: AbortSignal): Promise<DiffOutcome> {
    const id = ++this.counter;
    const name = basename(req.newFilePath) || 'proposal';
    // The file name keeps its extension so the proposal gets the same language and highlighting.
    const right = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/proposed/${name}` });
    this.fs.set(right, req.newFileContents);
    return new Promise<DiffOutcome>((resolve) => {
      const p: Pending = { req, left: right, right, settle: resolve };
      this.pending.set(right.toString(), p);
      const onAbort = (): void => {
        if (!this.pending.has(right.toString())) return;
        this.finish(p, { kind: 'closed', contents: this.proposalText(p) });
        void this.closeTabsOf(p);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void this.show(p, id, name).then(
        () => {
          if (signal.aborted) onAbort();
        },
        (err: unknown) => {
          this.log.error(`IDE: could not open diff "${req.tabName}": ${String(err)}`);
          this.finish(p, { kind: 'closed' });
        },
      );
    });
  }

  /** Closes tabs of pending diffs named `tabName`; returns how many. */
  async closeByName(tabName: string): Promise<number> {
    const targets = [...this.pending.values()].filter((p) => p.req.tabName === tabName);
    let n = 0;
    for (const p of targets) {
      this.finish(p, { kind: 'closed' });
      n += await this.closeTabsOf(p);
    }
    return n;
  }

  /** Closes every diff tab showing one of our proposals (pending or not); returns how many. */
  async closeAll(): Promise<number> {
    for (const p of [...this.pending.values()]) this.finish(p, { kind: 'closed' });
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL_SCHEME);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    return tabs.length;
  }

  dispose(): void {
    for (const p of [...this.pending.values()]) this.finish(p, { kind: 'closed' });
    for (const d of this.disposables) d.dispose();
    void vscode.commands.executeCommand('setContext', VIEWING_DIFF_KEY, false);
  }

  private async show(p: Pending, id: number, name: string): Promise<void> {
    let left: vscode.Uri;
    try {
      await vscode.workspace.fs.stat(vscode.Uri.file(p.req.oldFilePath));
      left = vscode.Uri.file(p.req.oldFilePath);
    } catch {
      // A new file: compare against an empty original.
      left = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/original/${name}` });
      this.fs.set(left, '');
    }
    p.left = left;
    await vscode.commands.executeCommand('vscode.diff', left, p.right, p.req.tabName, {
      preview: false,
      preserveFocus: false,
    });
    this.updateContext();
  }

  private pendingOf(tab: vscode.Tab | undefined): Pending | undefined {
    if (!tab || !(tab.input instanceof vscode.TabInputTextDiff)) return undefined;
    return this.pending.get(tab.input.modified.toString());
  }

  /** The diff a command is about: the URI the editor title passed, else the active tab. */
  private target(arg: unknown): Pending | undefined {
    if (arg instanceof vscode.Uri) {
      const byRight = this.pending.get(arg.toString());
      if (byRight) return byRight;
    }
    return this.pendingOf(vscode.window.tabGroups.activeTabGroup.activeTab);
  }

  async accept(arg: unknown): Promise<void> {
    const p = this.target(arg);
    this.log.info(
      `IDE diff: accept requested (${arg instanceof vscode.Uri ? arg.toString() : typeof arg}) → ${p ? `"${p.req.tabName}"` : 'no pending diff'}`,
    );
    if (!p) {
      void vscode.window.showInformationMessage('No proposed change is open.');
      return;
    }
    // The user may have edited the proposal; what is in the editor now is the answer. The file is
    // not written here: the agent (Claude Code) writes it from the returned contents and takes an
    // earlier write by the editor as a conflict ("File content has changed since it was last read").
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.right.toString());
    const contents = this.proposalText(p);
    this.log.info(`IDE diff: accepted "${p.req.tabName}" (${contents.length} characters) for ${p.req.newFilePath}`);
    // The proposal lives in memory; saving it only clears its dirty mark so closing asks nothing.
    if (doc?.isDirty) await doc.save();
    this.finish(p, { kind: 'accepted', contents });
    await this.closeTabsOf(p);
  }

  async reject(arg: unknown): Promise<void> {
    const p = this.target(arg);
    if (!p) return;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.right.toString());
    if (doc?.isDirty) await doc.save();
    this.finish(p, { kind: 'rejected' });
    await this.closeTabsOf(p);
  }

  /** What the proposal side holds now, with the user's edits. */
  private proposalText(p: Pending): string {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.right.toString());
    return doc?.getText() ?? this.fs.text(p.right) ?? p.req.newFileContents;
  }

  private finish(p: Pending, outcome: DiffOutcome): void {
    if (!this.pending.delete(p.right.toString())) return;
    p.settle(outcome);
    this.updateContext();
    // Keep the proposal readable until its tab is gone; drop it a little later.
    setTimeout(() => {
      this.fs.drop(p.right);
      if (p.left.scheme === PROPOSAL_SCHEME) this.fs.drop(p.left);
    }, 60_000).unref();
  }

  private async closeTabsOf(p: Pending): Promise<number> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.right.toString());
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
    return tabs.length;
  }

  private updateContext(): void {
    const viewing = this.pendingOf(vscode.window.tabGroups.activeTabGroup.activeTab) !== undefined;
    void vscode.commands.executeCommand('setContext', VIEWING_DIFF_KEY, viewing);
  }
}
