/** What the Inspector's commands work on: a file of its own, so its pieces share it without an import circle. */
import type { ServerDefinition } from '../../core/config/index.js';
import type { CallHistory } from '../../core/calls/index.js';
import type { McpHost } from '../../core/host.js';
import type { TraceHub } from '../../core/trace/index.js';
import type { ServerRoots } from './roots.js';

export interface InspectorDeps {
  host: McpHost;
  hub: TraceHub;
  roots: ServerRoots;
  history: CallHistory;
  storageDir: string;
  /** The definition as the config layer has it (before dev-mode rewrites). */
  definition(name: string): ServerDefinition | undefined;
  lastDevChange(name: string): string | undefined;
}

/** The server a command is for: its argument (a name, a tree item, a details document), else a pick. */
export type PickServer = (arg: unknown, title: string, connectedOnly?: boolean) => Promise<string | undefined>;
