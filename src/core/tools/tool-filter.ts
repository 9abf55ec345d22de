/**
 * Per-tool enable/disable: the one predicate every consumer that lists or calls tools asks
 * (palette, exported API, CLI, the gateway). Disabled tools are stored per workspace as
 * `{ server: [tool names] }` (the server's own tool names, not the qualified ones, so a rename of
 * the qualified form never re-enables a tool). What is not listed is enabled: a new tool shows up.
 */
import { Emitter, type Event } from '../events.js';
import type { KeyValueStore } from '../ports.js';

export const DISABLED_TOOLS_KEY = 'disabledTools';

type DisabledMap = Record<string, string[]>;

export interface ToolFilterChange {
  server: string;
  tool: string;
  enabled: boolean;
}

export class ToolFilter {
  private readonly changed = new Emitter<ToolFilterChange>();
  readonly onDidChange: Event<ToolFilterChange> = this.changed.event;

  constructor(private readonly store: KeyValueStore) {}

  private read(): DisabledMap {
    const v = this.store.get<unknown>(DISABLED_TOOLS_KEY);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    // A hand-edited or corrupt value never hides tools it cannot name.
    const out: DisabledMap = {};
    for (const [server, tools] of Object.entries(v as Record<string, unknown>)) {
      if (Array.isArray(tools)) out[server] = tools.filter((t): t is string => typeof t === 'string');
    }
    return out;
  }

  isEnabled(server: string, tool: string): boolean {
    return !this.read()[server]?.includes(tool);
  }

  /** The tools of `server` that are switched off. */
  disabledTools(server: string): string[] {
    return [...(this.read()[server] ?? [])];
  }

  /** Keeps only enabled tools; works on anything with `server` and `name` (HostTool, gateway rows). */
  filter<T extends { server: string; name: string }>(tools: readonly T[]): T[] {
    const map = this.read();
    return tools.filter((t) => !map[t.server]?.includes(t.name));
  }

  async setEnabled(server: string, tool: string, enabled: boolean): Promise<void> {
    if (this.isEnabled(server, tool) === enabled) return;
    const map = this.read();
    const rest = (map[server] ?? []).filter((t) => t !== tool);
    const next = enabled ? rest : [...rest, tool].sort();
    if (next.length) map[server] = next;
    else delete map[server];
    await this.store.update(DISABLED_TOOLS_KEY, map);
    this.changed.fire({ server, tool, enabled });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
