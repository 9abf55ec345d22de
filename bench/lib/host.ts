/** Builds host definitions for the benchmark fixtures and a quiet host to run them. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig, ServerDefinition } from '../../src/core/config/types.js';
import { signatureOf, stableHash } from '../../src/core/config/signature.js';
import { createHost, type McpHost } from '../../src/core/host.js';
import { nullLogger, type KeyValueStore } from '../../src/core/ports.js';
import type { ListCache } from '../../src/core/connection/list-cache.js';
import { TINY_SERVER } from './rawsdk.js';

export function definition(name: string, config: ServerConfig): ServerDefinition {
  return {
    name,
    config,
    source: { scope: 'dynamic', file: 'bench', jsonPath: [name] },
    signature: signatureOf(config),
    hash: stableHash(config),
  };
}

/** A tiny stdio server; `id` only makes each signature distinct so dedupe keeps them all. */
export function tinyServer(name: string, env: Record<string, string> = {}): ServerDefinition {
  return definition(name, { type: 'stdio', command: process.execPath, args: [TINY_SERVER, `--id=${name}`], env });
}

export function quietHost(
  extra: { local?: number; era?: 'auto' | 'legacy'; eraStore?: KeyValueStore; listCache?: ListCache } = {},
): McpHost {
  return createHost({
    ...(extra.listCache ? { listCache: extra.listCache } : {}),
    logger: nullLogger,
    blobDir: mkdtempSync(join(tmpdir(), 'mcp-bench-blobs-')),
    concurrency: { local: extra.local },
    // A generous timeout: the benchmark measures, it does not test failure paths.
    timeouts: { connectMs: 120_000, toolCallMs: 120_000 },
    env: {},
    ...(extra.era ? { eraNegotiation: extra.era } : {}),
    ...(extra.eraStore ? { eraStore: extra.eraStore } : {}),
  });
}
