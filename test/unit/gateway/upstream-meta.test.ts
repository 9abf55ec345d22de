/** The gateway says which server each tool it lists comes from, and MCP Host as its client reads it back. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/server';
import type { HostTool } from '../../../src/core/host-api.js';
import type { Catalog } from '../../../src/core/gateway/catalog.js';
import { agentTools } from '../../../src/core/gateway/views.js';
import { wrapTools } from '../../../src/core/capabilities/index.js';
import { UPSTREAM_META_KEY } from '../../../src/core/upstream-meta.js';

function tool(server: string, name: string): HostTool {
  return {
    server,
    name,
    qualifiedName: `mcp__${server}__${name}`,
    description: '',
    inputSchema: { type: 'object' },
    annotations: {},
  };
}

test('tools/list names each tool’s upstream server and its own name in _meta; the client groups by it', () => {
  const catalog: Catalog = {
    tools: [
      { name: 'my__server__get', tool: tool('my__server', 'get') },
      { name: 'beta__echo', tool: tool('beta', 'echo') },
    ],
    prompts: [],
    resources: [],
    templates: [],
    servers: ['my__server', 'beta'],
  };
  const listed = agentTools(catalog, { tools: 'full' }, undefined).tools;
  assert.deepEqual(listed[0]!._meta, { [UPSTREAM_META_KEY]: { server: 'my__server', tool: 'get' } });
  // A name with `__` in the server's part cannot be split back: the mark is what tells.
  const wrapped = wrapTools('team', listed as Tool[], new Set());
  assert.deepEqual(
    wrapped.map((t) => [t.name, t.upstream]),
    [
      ['my__server__get', { server: 'my__server', tool: 'get' }],
      ['beta__echo', { server: 'beta', tool: 'echo' }],
    ],
  );
});
