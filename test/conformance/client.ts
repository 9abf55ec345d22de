// Adapter the official conformance suite runs as its "client": it appends the scenario server's
// URL to our command line and sets MCP_CONFORMANCE_SCENARIO. Everything goes through our core
// (createHost with a dynamic Streamable HTTP definition), so the suite tests the host, not the SDK.
// Run: node --import tsx test/conformance/client.ts URL
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElicitationPort, HostTool } from '../../src/core/host-api.js';
import type { McpHost } from '../../src/core/host.js';
import type { ServerDefinition } from '../../src/core/config/types.js';
import { createHost } from '../../src/core/host.js';
import type { Logger } from '../../src/core/ports.js';

const SERVER = 'conformance';

const logger: Logger = {
  trace() {},
  debug() {},
  info: (m) => process.stderr.write(`[info] ${m}\n`),
  warn: (m) => process.stderr.write(`[warn] ${m}\n`),
  error: (m) => process.stderr.write(`[error] ${m}\n`),
};

/** The value a form would start with: the schema's `default` for every field that has one. */
export function defaultsOf(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, prop] of Object.entries(props)) {
    if (prop && 'default' in prop) out[key] = prop.default;
  }
  return out;
}

/** Accepts every form with its defaults (SEP-1034); URL elicitations are declined (no browser here). */
const elicitation: ElicitationPort = {
  elicit(_server, request) {
    if (request.mode === 'form')
      return Promise.resolve({ action: 'accept', content: defaultsOf(request.requestedSchema) });
    return Promise.resolve({ action: 'decline' });
  },
};

/** Arguments for a tool: known scenario tools get meaningful ones, others their schema defaults. */
function argsFor(tool: HostTool): Record<string, unknown> {
  if (tool.name === 'add_numbers') return { a: 5, b: 3 };
  return defaultsOf(tool.inputSchema);
}

function definition(url: string): ServerDefinition {
  return {
    name: SERVER,
    config: { type: 'http', url },
    source: { scope: 'dynamic', file: 'conformance', jsonPath: [SERVER] },
    signature: `url:${url}`,
    hash: `conformance:${url}`,
  };
}

async function connected(host: McpHost): Promise<HostTool[]> {
  await host.whenSettled();
  const snap = host.server(SERVER);
  if (!snap || snap.state.kind !== 'connected') {
    throw new Error(`not connected: ${JSON.stringify(snap?.state)}`);
  }
  return snap.tools;
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!url || !/^https?:\/\//.test(url)) throw new Error('usage: client.ts URL');
  const blobDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  const host = createHost({
    logger,
    blobDir,
    elicitation,
    clientInfo: { name: 'mcp-host-conformance', version: '0.1.0' },
  });
  try {
    host.setDefinitions([definition(url)]);
    const tools = await connected(host);
    logger.info(`${scenario}: connected, ${tools.length} tools`);
    // `initialize` only checks the handshake; every other core scenario is "call the tools offered".
    if (scenario !== 'initialize') {
      for (const tool of tools) {
        const result = await host.callTool(SERVER, tool.name, argsFor(tool), { timeoutMs: 20_000 });
        const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
        logger.info(`${tool.name} → ${result.isError ? 'error' : 'ok'}: ${text.slice(0, 200)}`);
      }
    }
  } finally {
    await host.dispose();
    await rm(blobDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`conformance client: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
