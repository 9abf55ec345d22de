import type { GateTimers } from './refresh-gate.js';

/**
 * Notices a row refresh that VS Code dropped, and asks for the whole tree instead. Kept free of
 * `vscode` so it is unit tested on plain Node.
 *
 * Why: the extension host refreshes a row only if it holds a node for that element; it drops the
 * refresh silently otherwise (extHostTreeViews `_getHandlesToRefresh`), for instance when the
 * children fetch that gave it the row was superseded after our `getTreeItem` ran. Seen in an e2e
 * run on VS Code 1.139: four servers connected within 1.4 s of activation, while the view was
 * being shown, and their rows said "connecting" for ten minutes while the status bar said 4/4.
 * A refresh that was not dropped makes the extension host call `getTreeItem` for the row, so each
 * row's last delivered look is remembered, and a fired row whose look still differs from what it
 * would show now, once `deadlineMs` has passed and no other refresh is waiting, means the refresh
 * was lost. It is refreshed once more first; only a second loss refreshes the whole tree, since a
 * root refresh makes the extension host forget every row while the workbench may be asking for the
 * children of expanded ones ("No tree item with id '1/group/project' found.", seen when the tree
 * was refreshed as the view opened).
 */
export class DeliveryCheck {
  /** Row id → how it looked when VS Code last asked for it (`getTreeItem`). */
  private readonly delivered = new Map<string, string>();
  private readonly watching = new Set<string>();
  /** Rows refreshed again after one loss: a second loss refreshes the whole tree. */
  private readonly retried = new Set<string>();
  private timer: unknown;
  private disposed = false;

  constructor(
    /** How the row would look now; undefined for a row that no longer exists. */
    private readonly current: (id: string) => string | undefined,
    /** Refresh these rows again (first loss). */
    private readonly retry: (ids: string[]) => void,
    /** Refresh the whole tree (second loss). */
    private readonly lost: (ids: string[]) => void,
    /** True while a refresh is waiting to go out: a newer change is on its way, check after it. */
    private readonly busy: () => boolean,
    private readonly timers: GateTimers,
    private readonly deadlineMs = 3000,
  ) {}

  /** VS Code asked how a row looks (`look` is how it looks now: a retry, if any, got through). */
  gave(id: string, look: string): void {
    this.delivered.set(id, look);
    this.retried.delete(id);
  }

  /** These rows were refreshed: VS Code should ask for each row it knew again. */
  fired(ids: readonly string[]): void {
    if (this.disposed) return;
    for (const id of ids) {
      // The extension host forgets the rows under a refreshed one; they are asked for again only
      // if shown, so they are not expected back.
      this.forgetUnder(id);
      if (this.delivered.has(id)) this.watching.add(id);
    }
    if (this.watching.size > 0 && this.timer === undefined) this.schedule();
  }

  /** The whole tree was refreshed: VS Code forgets every row and asks again for those it shows. */
  firedRoot(): void {
    this.delivered.clear();
    this.watching.clear();
    this.retried.clear();
  }

  private forgetUnder(id: string): void {
    const prefix = `${id}/`;
    for (const k of this.delivered.keys()) if (k.startsWith(prefix)) this.delivered.delete(k);
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(() => this.tick(), this.deadlineMs);
  }

  private tick(): void {
    this.timer = undefined;
    if (this.disposed) return;
    if (this.busy()) return this.schedule();
    const lost = [...this.watching].filter((id) => {
      const given = this.delivered.get(id);
      const now = this.current(id);
      return given !== undefined && now !== undefined && given !== now;
    });
    this.watching.clear();
    const again = lost.filter((id) => this.retried.has(id));
    if (again.length > 0) return this.lost(again);
    for (const id of lost) this.retried.add(id);
    if (lost.length > 0) this.retry(lost);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.watching.clear();
  }
}
