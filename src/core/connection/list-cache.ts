/**
 * The last lists each server answered, kept between runs (per workspace, through a
 * KeyValueStore) so that after a restart the tree and the palette show a server's tools at
 * once, marked as cached, while it reconnects. Only tool, resource and prompt lists are kept:
 * nothing from the configuration, so no secret. Entries are keyed by the definition's content
 * hash: a changed definition (another command, URL or header) never shows the old one's lists.
 */
import type { ServerDefinition } from '../config/types.js';
import type { Clock, KeyValueStore } from '../ports.js';
import type { CachedLists, ServerListCache } from '../host-data.js';

export type { CachedLists } from '../host-data.js';

export const LIST_CACHE_KEY = 'mcpHost.listCache';
/** Servers kept; the least recently connected go first. */
export const LIST_CACHE_MAX_SERVERS = 64;
/** Lists larger than this (serialised) are not kept: a restart must not read megabytes. */
export const LIST_CACHE_MAX_ENTRY_CHARS = 512 * 1024;
/** All lists together (the CLI's state file refuses more than 4 MB). */
export const LIST_CACHE_MAX_TOTAL_CHARS = 2 * 1024 * 1024;

type Entries = Record<string, CachedLists>;

function keyOf(def: Pick<ServerDefinition, 'name' | 'hash'>): string {
  return `${def.name}#${def.hash}`;
}

export class ListCache implements ServerListCache {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  get(def: Pick<ServerDefinition, 'name' | 'hash'>): CachedLists | undefined {
    const e = this.entries()[keyOf(def)];
    return e && Array.isArray(e.tools) && Array.isArray(e.resources) && Array.isArray(e.prompts) ? e : undefined;
  }

  async put(def: Pick<ServerDefinition, 'name' | 'hash'>, lists: Omit<CachedLists, 'at'>): Promise<void> {
    const entry: CachedLists = { ...lists, at: this.clock.now() };
    const entries = this.entries();
    // Other definitions of the same name are stale now.
    for (const k of Object.keys(entries)) if (k.startsWith(`${def.name}#`)) delete entries[k];
    if (JSON.stringify(entry).length <= LIST_CACHE_MAX_ENTRY_CHARS) entries[keyOf(def)] = entry;
    let total = 0;
    const keep = Object.entries(entries)
      .sort(([, a], [, b]) => b.at - a.at)
      .slice(0, LIST_CACHE_MAX_SERVERS)
      .filter(([, e]) => (total += JSON.stringify(e).length) <= LIST_CACHE_MAX_TOTAL_CHARS);
    await this.kv.update(LIST_CACHE_KEY, Object.fromEntries(keep));
  }

  async clear(): Promise<void> {
    await this.kv.update(LIST_CACHE_KEY, undefined);
  }

  private entries(): Entries {
    const raw = this.kv.get<unknown>(LIST_CACHE_KEY);
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Entries) } : {};
  }
}
