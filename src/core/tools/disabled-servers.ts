/**
 * Servers the user switched off for a workspace, in the same per-workspace file as the disabled
 * tools (workspace-state.ts), so a server disabled in the editor stays stopped under `mcp-host` and
 * `mcp-host serve` (VS Code's own workspace storage is a database the CLI cannot read).
 */
import type { KeyValueStore } from '../ports.js';

export const DISABLED_SERVERS_KEY = 'disabledServers';

export class DisabledServers {
  /** Writes not yet on disk: re-reading the file meanwhile would forget them. */
  private writing = 0;

  constructor(private readonly store: KeyValueStore & { reload?(): void }) {}

  /** The names on the list; re-read each time, since another process may have changed it. */
  names(): string[] {
    if (this.writing === 0) this.store.reload?.();
    const v = this.store.get<unknown>(DISABLED_SERVERS_KEY);
    // A hand-edited or corrupt value disables nothing it cannot name.
    return Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : [];
  }

  async set(name: string, disabled: boolean): Promise<void> {
    const list = new Set(this.names());
    if (disabled === list.has(name)) return;
    if (disabled) list.add(name);
    else list.delete(name);
    await this.write([...list].sort());
  }

  private async write(names: string[]): Promise<void> {
    this.writing++;
    try {
      await this.store.update(DISABLED_SERVERS_KEY, names);
    } finally {
      this.writing--;
    }
  }

  /**
   * Adds the names an older version kept elsewhere (the editor's Memento), once: the caller clears
   * the old place after this resolves.
   */
  async adopt(names: readonly string[]): Promise<void> {
    const list = new Set(this.names());
    const before = list.size;
    for (const n of names) if (typeof n === 'string') list.add(n);
    if (list.size !== before) await this.write([...list].sort());
  }
}
