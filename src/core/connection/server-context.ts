/** What every server entry shares, provided by the host (settings, clock, pools, events). */
import type { HostOptions, HostTool, ServerSnapshot } from '../host-api.js';
import type { ServerDefinition } from '../config/types.js';
import type { Clock } from '../ports.js';
import type { LaunchPluginFactory } from './launch-plugin.js';
import type { Pool } from './pool.js';
import type { ConnectionSettings } from './settings.js';

/** A server entry as the host's callbacks see it (server-entry.ts). */
export interface EntryView {
  readonly name: string;
  readonly tools: readonly HostTool[];
  snapshot(): ServerSnapshot;
}

/** What every server shares, provided by the host. */
export interface ServerContext {
  readonly settings: ConnectionSettings;
  readonly clock: Clock;
  readonly options: HostOptions;
  readonly clientInfo: { name: string; version: string };
  /**
   * What plugs into every launch (launch-plugin.ts), in order: MCP Apps, the client features,
   * era verdicts, the trace. What `initialize` declares is theirs to say.
   */
  readonly plugins: readonly LaunchPluginFactory[];
  /** The connect pool for this definition; undefined: in-process servers take no slot. */
  poolFor(def: ServerDefinition): Pool | undefined;
  /** Qualified tool names other servers already use. */
  takenNames(except: EntryView): Set<string>;
  /** State or lists changed: fire the event and check whether everything settled. */
  changed(entry: EntryView): void;
  /** An attempt ended (its outcome already fired): check whether everything settled. */
  attemptEnded(): void;
}
