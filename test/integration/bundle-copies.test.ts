import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedBuild } from '../support/shipped-build.js';

const repo = join(__dirname, '..', '..');

// The check is plain JS shared with nothing else; loaded as ESM from this CommonJS test.
type Check = {
  findCopies(root: string, metafiles: Record<string, unknown>): string[];
  readMetafiles(dir: string, files: string[]): Record<string, unknown>;
};

// One copy of each package: the SDK's client and server each inline an Ajv and the protocol core
// of their own, and the MCP Apps bridge once carried a second SDK; esbuild.config.mjs routes all of
// it to one copy.
test(
  'every package is bundled once per output, and once across the outputs one process loads',
  { timeout: 180_000 },
  async () => {
    // The metafiles of the run's production build: what ships.
    const { meta } = await shippedBuild();
    const check = (await import(join(repo, 'scripts/lib/bundle-copies.mjs'))) as Check;
    const metafiles = check.readMetafiles(meta, ['extension.js', 'cli.js', 'ext-apps-bridge.js', 'sandbox-runtime.js']);
    assert.deepEqual(check.findCopies(repo, metafiles), []);
  },
);

type CoreCheck = {
  bundleCoreChunks(outfile: string): Promise<void>;
  sdkCoreShapes(rebuilt: Record<string, Record<string, unknown>>): Promise<string[]>;
};

// The one protocol core (scripts/lib/sdk-core-once.mjs) is compiled from the SDK's source maps: what
// each package's code imports from it must be what that package's own chunk exports.
test('the one protocol core gives the SDK client and server every export of their own core chunks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-core-'));
  try {
    const check = (await import(join(repo, 'scripts/lib/sdk-core-once.mjs'))) as CoreCheck;
    const outfile = join(dir, 'core.mjs');
    await check.bundleCoreChunks(outfile);
    const rebuilt = (await import(outfile)) as Record<string, Record<string, unknown>>;
    assert.deepEqual(await check.sdkCoreShapes(rebuilt), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
