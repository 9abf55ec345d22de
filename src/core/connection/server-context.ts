/** What every server entry shares, provided by the host (settings, clock, pools, events). */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { HostOptions, HostTool, ServerSnapshot } from '../host-api.js';
import type { ServerDefinition } from '../config/types.js';
import type { ClientFeatures } from '../features/index.js';
import type { Clock } from '../ports.js';
import type { EraVerdicts } from './era.js';
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
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: { name: string; version: string };
  /** Remembered protocol eras (era.ts); undefined: every connection stays on 2025-11-25. */
  readonly eras: EraVerdicts | undefined;
  /** Sampling, logging, ping, tasks, subscriptions (src/core/features). */
  readonly features: ClientFeatures;
  /** The connect pool for this definition; undefined: in-process servers take no slot. */
  poolFor(def: ServerDefinition): Pool | undefined;
  /** Qualified tool names other servers already use. */
  takenNames(except: EntryView): Set<string>;
  /** State or lists changed: fire the event and check whether everything settled. */
  changed(entry: EntryView): void;
  /** An attempt ended (its outcome already fired): check whether everything settled. */
  attemptEnded(): void;
}
