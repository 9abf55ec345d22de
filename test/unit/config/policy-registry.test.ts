/**
 * "registryOnly" asks the registry about each server (core/config/policy-registry.ts), here a real
 * local registry: an entry the registry has withdrawn (deprecated, deleted) is held even when its
 * launch is exactly the one the entry installs; the same entry while active runs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRegistry } from '../../../src/core/config/policy-registry.js';
import type { Policy, ServerDefinition } from '../../../src/core/config/types.js';
import { EVERYTHING_VERSION, sampleServers, startFakeRegistry } from '../../fixtures/registry/fake-registry.js';

const ID = 'io.github.modelcontextprotocol/everything';

function withStatus(status: string): unknown[] {
  return sampleServers().map((item) => {
    const i = item as { server?: { name?: string }; _meta?: Record<string, Record<string, unknown>> };
    if (i?.server?.name !== ID) return item;
    const meta = i._meta!['io.modelcontextprotocol.registry/official']!;
    return { ...i, _meta: { 'io.modelcontextprotocol.registry/official': { ...meta, status } } };
  });
}

const def: ServerDefinition = {
  name: 'ev',
  config: {
    type: 'stdio',
    command: 'npx',
    args: ['-y', `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`],
    env: { EVERYTHING_TOKEN: 't' },
    registry: { id: ID, version: EVERYTHING_VERSION },
  },
  source: { scope: 'user', file: '/u/mcp.json', jsonPath: ['servers', 'ev'] },
  signature: 'stdio:ev',
  hash: 'h',
};

for (const status of ['active', 'deprecated', 'deleted']) {
  test(`registryOnly: an exact install of an entry the registry marks ${status} ${status === 'active' ? 'runs' : 'is held'}`, async (t) => {
    const reg = await startFakeRegistry({ servers: withStatus(status) });
    t.after(() => reg.close());
    const policy: Policy = {
      file: '/etc/mcp-host/managed.json',
      denied: [],
      registryOnly: { file: '/etc/mcp-host/managed.json', jsonPath: ['registryOnly'], registryUrl: reg.url },
    };
    const verdict = (await checkRegistry([def], policy)).get('ev');
    if (status === 'active') assert.deepEqual(verdict, { ok: true });
    else
      assert.deepEqual(verdict, { ok: false, message: `the registry marks "${ID}" ${EVERYTHING_VERSION} ${status}` });
  });
}
