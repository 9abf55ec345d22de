/**
 * Entry point of the core engine: `createHost(options)` returns the `McpHost` the editor layer,
 * the CLI and tests drive. See src/core/connection/manager.ts for the behaviour.
 */
import type { HostOptions } from './host-api.js';
import { Manager, type ConnectionManager } from './connection/manager.js';

export type { ConnectionManager } from './connection/manager.js';
export { HostError } from './errors.js';

export function createHost(options: HostOptions): ConnectionManager {
  return new Manager(options);
}
