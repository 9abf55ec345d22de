/**
 * Entry point of the core engine: `createHost(options)` returns the `McpHost` the editor layer,
 * the CLI and tests drive. See src/core/connection/mcp-host.ts for the behaviour.
 */
import type { HostOptions } from './host-api.js';
import { McpHost } from './connection/mcp-host.js';

export type { McpHost } from './connection/mcp-host.js';
export { HostError } from './errors.js';

export function createHost(options: HostOptions): McpHost {
  return new McpHost(options);
}
