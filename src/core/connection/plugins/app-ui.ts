/**
 * MCP Apps as a launch plugin: a front end that renders apps (HostOptions.apps) declares the
 * `io.modelcontextprotocol/ui` extension, so servers may offer tools with a UI. What a tool says
 * about its app is read from the lists (app-meta.ts), not from the connection.
 */
import { clientCapabilities } from '../client-handlers.js';
import type { LaunchPluginFactory } from '../launch-plugin.js';

export function appUiPlugin(): LaunchPluginFactory {
  return () => ({ capabilities: (caps) => clientCapabilities({ apps: true }, caps) });
}
