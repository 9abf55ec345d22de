/**
 * Holds the servers tree's refreshes until the workbench has stopped asking for rows. Kept free of
 * `vscode` so it is unit tested on plain Node.
 *
 * Why: refreshing a row makes the extension host forget the rows under it, while the workbench may
 * be about to ask for their children: right after it got a server's groups it asks for the
 * children of the expanded ones (after a reload it restores them, and the list cache shows a
 * server's tools before it connects, so its row changes at once). A request for a forgotten row
 * fails with "No tree item with id '1/server/<name>/tools' found." in the extension host log (seen
 * on VS Code 1.139, once in a fresh-clone CI run). So a refresh waits until no row was asked for
 * during `quietMs`, and never longer than `maxDelayMs` (a workbench that keeps asking still sees
 * the change).
 */
export interface GateTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What to refresh: the whole tree, or these rows. */
export type PendingRefresh = { root: true } | { root: false; ids: Set<string> };

export class RefreshGate {
  private pending: PendingRefresh | undefined;
  private firstAt = 0;
  private lastAskedAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  private disposed = false;

  constructor(
    private readonly fire: (what: PendingRefresh) => void,
    private readonly timers: GateTimers,
    private readonly quietMs = 200,
    private readonly maxDelayMs = 1000,
  ) {}

  /** A refresh is waiting to go out. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /** The workbench asked for the children of a row. */
  asked(): void {
    this.lastAskedAt = this.timers.now();
  }

  /** Refresh the whole tree (`ids` undefined) or these rows, once the tree is quiet. */
  request(ids?: readonly string[]): void {
    if (this.disposed) return;
    if (!this.pending) this.firstAt = this.timers.now();
    if (ids === undefined || this.pending?.root) this.pending = { root: true };
    else {
      const merged: Set<string> = this.pending ? this.pending.ids : new Set<string>();
      for (const id of ids) merged.add(id);
      this.pending = { root: false, ids: merged };
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    const now = this.timers.now();
    const quietAt = this.lastAskedAt + this.quietMs;
    const latest = this.firstAt + this.maxDelayMs;
    const at = Math.min(Math.max(quietAt, now), latest);
    this.timer = this.timers.setTimeout(() => this.tick(), Math.max(0, at - now));
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.pending || this.disposed) return;
    const now = this.timers.now();
    // Asked again while we waited: wait for quiet again, up to the deadline.
    if (now < this.lastAskedAt + this.quietMs && now < this.firstAt + this.maxDelayMs) return this.schedule();
    const what = this.pending;
    this.pending = undefined;
    this.fire(what);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.pending = undefined;
  }
}
