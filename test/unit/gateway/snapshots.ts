/** Snapshots of servers for catalogue tests: connected (or failed) with the named lists. */
import type { HostTool, ServerSnapshot } from '../../../src/core/host-api.js';
import { signatureOf, stableHash } from '../../../src/core/config/signature.js';
import type { ServerConfig } from '../../../src/core/config/types.js';

export function tool(server: string, name: string): HostTool {
  return {
    server,
    name,
    qualifiedName: `mcp__${server}__${name}`,
    description: '',
    inputSchema: { type: 'object' },
    annotations: {},
  };
}

export function snap(
  name: string,
  o: {
    tools?: string[];
    uris?: string[];
    templates?: string[];
    prompts?: string[];
    state?: 'connected' | 'failed';
  } = {},
): ServerSnapshot {
  const config = { type: 'stdio', command: 'x', args: [name] } as ServerConfig;
  return {
    name,
    definition: {
      name,
      config,
      source: { scope: 'user', file: 'f', jsonPath: [] },
      signature: signatureOf(config),
      hash: stableHash(config),
    },
    state:
      o.state === 'failed'
        ? { kind: 'failed', error: { code: 'connect-failed', message: 'x' }, at: 0 }
        : { kind: 'connected', serverInfo: { name, version: '1' }, capabilities: {}, connectedAt: 0, connectMs: 1 },
    tools: (o.tools ?? []).map((t) => tool(name, t)),
    resources: (o.uris ?? []).map((uri) => ({ server: name, uri, name: uri })),
    resourceTemplates: (o.templates ?? []).map((uriTemplate) => ({ server: name, uriTemplate, name: uriTemplate })),
    prompts: (o.prompts ?? []).map((p) => ({ server: name, name: p, arguments: [] })),
  };
}
