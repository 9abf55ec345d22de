import type { ServerSnapshot } from '../../core/host-api.js';
import type { ConfigProblem } from '../../core/config/index.js';
import type { Event } from '../../core/events.js';

/** What the tree reads; the config controller and the host provide it. */
export interface TreeSource {
  servers(): ServerSnapshot[];
  server(name: string): ServerSnapshot | undefined;
  problems(): ConfigProblem[];
  /** A server's snapshot (state, lists or admission) changed (name), or the set of servers/problems changed (undefined). */
  onDidChange: Event<string | undefined>;
}
