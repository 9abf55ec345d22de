import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedBuild } from '../support/shipped-build.js';

const repo = join(__dirname, '..', '..');

// The check is plain JS shared with nothing else; loaded as ESM from this CommonJS test.
type Metafile = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
type Check = {
  findCopies(root: string, metafiles: Record<string, unknown>): string[];
  readMetafiles(dir: string, files: string[]): Record<string, Metafile>;
  LOADED_TOGETHER: string[][];
};

/** Every output the build writes: the extension's bundles (scripts/lib/lazy-bundles.mjs) and the CLI. */
const outputs = (check: Check): string[] => [...new Set([...check.LOADED_TOGETHER.flat()])];

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
    const metafiles = check.readMetafiles(meta, outputs(check));
    assert.deepEqual(check.findCopies(repo, metafiles), []);
  },
);

// The check must see a module that two bundles of one process both carry: here extension.js's
// Emitter (src/core/events.ts, state-free but a class others test with instanceof) copied into
// gateway.js's metafile, and one of zod's modules into ide.js's.
test(
  'a module carried by two bundles that one process loads fails the one-copy check',
  { timeout: 180_000 },
  async () => {
    const { meta } = await shippedBuild();
    const check = (await import(join(repo, 'scripts/lib/bundle-copies.mjs'))) as Check;
    const metafiles = check.readMetafiles(meta, outputs(check));
    const inputsOf = (file: string): Record<string, { bytesInOutput: number }> =>
      Object.entries(metafiles[file]!.outputs).find(([f]) => !f.endsWith('.map'))![1].inputs;
    const main = inputsOf('extension.js');
    const zod = Object.keys(main).find((k) => k.startsWith('node_modules/zod/') && main[k]!.bytesInOutput > 0)!;
    assert.ok(main['src/core/events.ts']!.bytesInOutput > 0, 'extension.js holds src/core/events.ts');
    inputsOf('gateway.js')['src/core/events.ts'] = { bytesInOutput: 100 };
    inputsOf('ide.js')[zod] = { bytesInOutput: 100 };
    const problems = check.findCopies(repo, metafiles);
    assert.ok(
      problems.some((p) => p.startsWith('src/core/events.ts in extension.js and gateway.js')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith(`${zod} in extension.js and ide.js`)),
      problems.join('\n'),
    );
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

// The Redis client serves only a team gateway configured with a Redis (src/core/cluster/): it is
// redis-client.js alone, required by cli.js when that config asks for it; no other bundle parses it.
test('ioredis is in redis-client.js only, and cli.js requires it from there', { timeout: 180_000 }, async () => {
  const { meta } = await shippedBuild();
  const check = (await import(join(repo, 'scripts/lib/bundle-copies.mjs'))) as Check;
  const metafiles = check.readMetafiles(meta, outputs(check));
  const holding = Object.entries(metafiles)
    .filter(([, m]) =>
      Object.values(m.outputs).some((o) =>
        Object.entries(o.inputs).some(([k, v]) => k.includes('node_modules/ioredis/') && v.bytesInOutput > 0),
      ),
    )
    .map(([file]) => file);
  assert.deepEqual(holding, ['redis-client.js']);
  const cli = Object.entries(metafiles['cli.js']!.outputs).find(([f]) => !f.endsWith('.map'))![1] as {
    imports?: { path: string; external?: boolean }[];
  };
  assert.ok(
    cli.imports?.some((i) => i.path === './redis-client.js' && i.external),
    'cli.js requires ./redis-client.js',
  );
});
