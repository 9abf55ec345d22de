import { Server } from '@modelcontextprotocol/server';
import type { Transport, Tool } from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { def } from '../connection/helpers.js';

const FILE = join(__dirname, '..', '..', 'fixtures', 'tool-catalog', 'catalog.json');

export function catalogueServers(): { name: string; tools: Tool[] }[] {
  return (JSON.parse(readFileSync(FILE, 'utf8')) as { servers: { name: string; tools: Tool[] }[] }).servers;
}

/** One in-process server per catalogue server (all of them, or those named). */
export function catalogueDefs(only?: string[]): ServerDefinition[] {
  return catalogueServers()
    .filter((s) => !only || only.includes(s.name))
    .map(({ name, tools }) =>
      def(name, {
        type: 'inprocess',
        id: `catalogue-${name}`,
        start: async (transport: Transport) => {
          const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
          server.setRequestHandler('tools/list', () => ({ tools }));
          server.setRequestHandler('tools/call', (req) => ({
            content: [
              { type: 'text', text: `called ${name}/${req.params.name} ${JSON.stringify(req.params.arguments ?? {})}` },
            ],
          }));
          await server.connect(transport);
        },
      }),
    );
}
