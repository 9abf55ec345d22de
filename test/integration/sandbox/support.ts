/** Shared by the sandbox integration files: a workspace folder with servers, loaded and started. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { loadConfig } from '../../../src/core/config/load.js';
import type { SandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { FIXTURES, MemoryLogger, textOf } from '../connection/helpers.js';
import { requireSandboxTools } from '../../support/system-tool.js';

export const PROBE = path.join(FIXTURES, 'sandbox-probe.mjs');
export const probe = { command: process.execPath, args: [PROBE], sandboxEnabled: true };

/**
 * `skip` for a test that needs the real sandbox: it runs where bwrap, socat and ripgrep are (and
 * always under CI=true, where a missing tool fails it: test/support/system-tool.ts), and names the
 * tool it lacks, also one hidden by MCP_HOST_TEST_HIDE_TOOLS.
 */
export function needsSandbox(): string | false {
  if (process.platform !== 'linux') return 'Linux only (bubblewrap)';
  return requireSandboxTools() ?? false;
}

export interface Ctx {
  host: McpHost;
  log: MemoryLogger;
  folder: string;
}

/** A folder `root/name` with `file` (relative) holding `{ [key]: servers }`, loaded with `home`. */
export async function hostWith(o: {
  root: string;
  name: string;
  home: string;
  file?: string;
  servers: Record<string, unknown>;
  managed?: unknown;
  runtime?: SandboxRuntime;
  privateDirs?: readonly string[];
}): Promise<Ctx> {
  const folder = path.join(o.root, o.name);
  const file = o.file ?? '.vscode/mcp.json';
  fs.mkdirSync(path.join(folder, path.dirname(file)), { recursive: true });
  const key = file.endsWith('.mcp.json') ? 'mcpServers' : 'servers';
  fs.writeFileSync(path.join(folder, file), JSON.stringify({ [key]: o.servers }));
  let managedPath: string | undefined;
  if (o.managed) {
    managedPath = path.join(o.root, `${o.name}-managed.json`);
    fs.writeFileSync(managedPath, JSON.stringify(o.managed));
  }
  const loaded = await loadConfig({ folders: [folder], homeDir: o.home, managedPath, privateDirs: o.privateDirs });
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: path.join(folder, 'blobs'), sandbox: o.runtime });
  host.setDefinitions(loaded.servers);
  await host.whenSettled();
  return { host, log, folder };
}

export async function call(host: McpHost, server: string, tool: string, args: Record<string, string>) {
  return textOf(await host.callTool(server, tool, args));
}
