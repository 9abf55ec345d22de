/** The hints (MCP tool annotations) of the gateway's own tools: search mode's three and the sign-in stand-in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostTool } from '../../../src/core/host-api.js';
import type { Catalog } from '../../../src/core/gateway/catalog.js';
import { agentTools } from '../../../src/core/gateway/views.js';
import { GatewayViews } from '../../../src/core/gateway/views.js';
import {
  callToolHints,
  searchModeCall,
  searchToolDefinitions,
  CALL_TOOL,
  DESCRIBE_TOOL,
  SEARCH_TOOL,
} from '../../../src/core/gateway/tool-search.js';
import { signInTools } from '../../../src/core/gateway/auth-tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function tool(name: string, annotations: HostTool['annotations']): HostTool {
  return {
    server: 's',
    name,
    qualifiedName: `mcp__s__${name}`,
    description: `${name} things`,
    inputSchema: { type: 'object' },
    annotations,
  };
}

function catalog(tools: HostTool[]): Catalog {
  return {
    tools: tools.map((t) => ({ name: `s__${t.name}`, tool: t })),
    prompts: [],
    resources: [],
    templates: [],
    servers: ['s'],
  };
}

test('search_tools and get_tool_schema are read-only, non-destructive, idempotent and closed-world', () => {
  const defs = searchToolDefinitions([{ name: 's', tools: 1 }], 1);
  for (const name of [SEARCH_TOOL, DESCRIBE_TOOL]) {
    const d = defs.find((x) => x.name === name)!;
    assert.deepEqual({ ...d.annotations, title: undefined }, { ...READ, title: undefined }, name);
  }
});

test('call_tool promises what every tool it can call keeps, and no more', () => {
  assert.deepEqual(callToolHints([{ annotations: READ }, { annotations: { readOnlyHint: true } }]), {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(callToolHints([{ annotations: READ }]), READ);
  // One tool without hints: the specification's defaults (may write, destroy, reach out) hold for call_tool.
  assert.deepEqual(callToolHints([{ annotations: READ }, { annotations: {} }]), {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  assert.deepEqual(
    callToolHints([{ annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false } }]),
    {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  );
});

test('in search mode call_tool carries the hints of the catalogue, and results carry each tool’s own', () => {
  const views = new GatewayViews({ toolSearch: () => ({ mode: 'on' }) });
  const readOnly = agentTools(catalog([tool('read', READ), tool('list', READ)]), {}, views);
  const call = readOnly.tools.find((t) => t.name === CALL_TOOL)!;
  assert.deepEqual({ ...(call.annotations as object), title: undefined }, { ...READ, title: undefined });
  const mixed = agentTools(catalog([tool('read', READ), tool('delete', { destructiveHint: true })]), {}, views);
  assert.equal(
    (mixed.tools.find((t) => t.name === CALL_TOOL)!.annotations as { destructiveHint: boolean }).destructiveHint,
    true,
  );
  const step = searchModeCall(SEARCH_TOOL, { query: 'delete things' }, mixed.search!, mixed.definition);
  assert.ok('result' in step);
  const found = JSON.parse(step.result.content[0]!.text) as { tools: { name: string; annotations?: unknown }[] };
  assert.deepEqual(found.tools.find((t) => t.name === 's__delete')?.annotations, { destructiveHint: true });
  const schema = searchModeCall(DESCRIBE_TOOL, { name: 's__read' }, mixed.search!, mixed.definition);
  assert.ok('result' in schema);
  assert.deepEqual((JSON.parse(schema.result.content[0]!.text) as { annotations: unknown }).annotations, READ);
});

test('the sign-in stand-in says it changes state but destroys nothing', () => {
  const [t] = signInTools(
    [{ name: 'remote', state: { kind: 'needs-auth', message: 'sign in', at: 0 } } as never],
    {},
    new Set(),
  );
  assert.deepEqual(t!.tool.annotations, {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
});
