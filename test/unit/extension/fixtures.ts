/** Small builders for snapshots and definitions used by the editor-layer unit tests. */
import type { HostTool, ServerSnapshot } from '../../../src/core/host-api.js';
import type { HeldReason, Scope, ServerConfig, ServerDefinition } from '../../../src/core/config/types.js';
import type { ConnectionState } from '../../../src/core/connection/state.js';
import type { HostErrorCode } from '../../../src/core/errors.js';

export function def(
  name: string,
  opts: { scope?: Scope; file?: string; config?: ServerConfig; hash?: string } = {},
): ServerDefinition {
  const config: ServerConfig = opts.config ?? { type: 'stdio', command: 'node', args: [`${name}.js`] };
  const scope = opts.scope ?? 'project';
  return {
    name,
    config,
    source: { scope, file: opts.file ?? '/w/.mcp.json', jsonPath: ['mcpServers', name] },
    signature: `stdio:${name}`,
    hash: opts.hash ?? `h-${name}`,
  };
}

export const connected: Extract<ConnectionState, { kind: 'connected' }> = {
  kind: 'connected',
  serverInfo: { name: 'everything', version: '2.0.0' },
  capabilities: {},
  instructions: 'Use the echo tool to test.',
  connectedAt: 0,
  connectMs: 42.4,
};

export function failed(code: HostErrorCode, message: string): ConnectionState {
  return { kind: 'failed', error: { code, message }, at: 0 };
}

export function tool(server: string, name: string, annotations: HostTool['annotations'] = {}): HostTool {
  return {
    server,
    name,
    qualifiedName: `mcp__${server}__${name}`,
    description: `the ${name} tool`,
    inputSchema: { type: 'object' },
    annotations,
  };
}

export function snap(name: string, state: ConnectionState, extra: Partial<ServerSnapshot> = {}): ServerSnapshot {
  return {
    name,
    definition: extra.definition ?? def(name),
    state,
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...extra,
  };
}

/** A server admission holds back for `reason`, as the host shows it (disabled by the host). */
export function held(name: string, reason: HeldReason): ServerSnapshot {
  const d = { ...def(name), admission: { run: false as const, reason, message: `held: ${reason}` } };
  return snap(name, { kind: 'disabled', reason: 'config', message: `held: ${reason}` }, { definition: d });
}
