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
 *
 * Quiet is not enough under load: a row given as expanded is a request the workbench still owes
 * (the children of a server's expanded Tools folder), and it came 134 ms after a 200 ms quiet had
 * passed in one e2e run at load 45, for a folder the refresh had just made it forget. So a refresh
 * also waits until every row given as expanded has been asked for, for at most `owedMs` per row
 * (a row that is collapsed, hidden or gone is never asked for).
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
  /** Rows given as expanded whose children the workbench has not asked for yet, and since when. */
  private readonly owed = new Map<string, number>();

  constructor(
    private readonly fire: (what: PendingRefresh) => void,
    private readonly timers: GateTimers,
    private readonly quietMs = 200,
    private readonly maxDelayMs = 1000,
    private readonly owedMs = 4000,
  ) {}

  /** A refresh is waiting to go out. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /**
   * The workbench asked for the children of `parent` (the root when undefined) and was given
   * `expanded`: rows it shows expanded, whose children it will ask for next.
   */
  asked(parent?: string, expanded: readonly string[] = []): void {
    const now = this.timers.now();
    this.lastAskedAt = now;
    if (parent !== undefined) this.owed.delete(parent);
    for (const id of expanded) this.owed.set(id, now);
    if (this.pending) this.schedule();
  }

  /** The user collapsed a row: the workbench will not ask for its children. */
  collapsed(id: string): void {
    if (this.owed.delete(id) && this.pending) this.schedule();
  }

  /** When the last row still owed stops being waited for (`now` when none is). */
  private owedUntil(now: number): number {
    let until = now;
    for (const [id, since] of this.owed) {
      if (since + this.owedMs <= now) this.owed.delete(id);
      else until = Math.max(until, since + this.owedMs);
    }
    return until;
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
    const at = Math.max(Math.min(Math.max(quietAt, now), latest), this.owedUntil(now));
    this.timer = this.timers.setTimeout(() => this.tick(), Math.max(0, at - now));
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.pending || this.disposed) return;
    const now = this.timers.now();
    // Asked again while we waited: wait for quiet again, up to the deadline.
    if (now < this.lastAskedAt + this.quietMs && now < this.firstAt + this.maxDelayMs) return this.schedule();
    // A row given as expanded still to be asked for: wait for its request (owedMs at most).
    if (this.owedUntil(now) > now) return this.schedule();
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
