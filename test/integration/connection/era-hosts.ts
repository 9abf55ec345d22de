/**
 * Set-up shared by the tests that run one fixture (modern-server.mjs) on both eras: hosts and
 * servers that are disposed after the file, a connected check that names the protocol version, and
 * the fixture as a stdio or Streamable HTTP definition.
 */
import { after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import type { HostOptions } from '../../../src/core/host-api.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { FIXTURES, MemoryLogger, def, startPortServer, tempDir, waitFor, type RunningServer } from './helpers.js';
import { serverScript } from '../../support/fixture-servers.js';

export const MODERN = serverScript(path.join(FIXTURES, 'modern-server.mjs'));

export interface EraHosts {
  newHost(o?: Partial<HostOptions>): { host: McpHost; log: MemoryLogger };
  /** The fixture over Streamable HTTP (`legacy: reject`, modern only), on `port` when given. */
  http(port?: number, extra?: string[]): Promise<RunningServer>;
  /** The fixture over stdio (`serveStdio`: both eras on one connection). */
  stdio(name: string): ServerDefinition;
  connected(host: McpHost, name: string, protocolVersion: string): Promise<void>;
}

export function eraHosts(prefix: string, base: Partial<HostOptions> = {}): EraHosts {
  const dir = tempDir(prefix);
  const hosts: McpHost[] = [];
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.dispose()));
    await Promise.all(stops.map((s) => s()));
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    newHost(o = {}) {
      const log = new MemoryLogger();
      const host = createHost({ logger: log, blobDir: dir, ...base, ...o });
      hosts.push(host);
      return { host, log };
    },
    async http(port, extra = []) {
      const s = await startPortServer(
        'modern-server.mjs',
        ['--http', '--legacy', 'reject', ...(port ? ['--port', String(port)] : []), ...extra],
        '/mcp',
      );
      stops.push(() => s.stop());
      return s;
    },
    stdio: (name) => def(name, { type: 'stdio', command: process.execPath, args: [MODERN] }),
    async connected(host, name, protocolVersion) {
      await waitFor(host, name, (s) => s.state.kind === 'connected' || s.state.kind === 'failed');
      const state = host.server(name)!.state;
      assert.equal(state.kind, 'connected', JSON.stringify(state));
      assert.equal(state.kind === 'connected' && state.protocolVersion, protocolVersion);
    },
  };
}
