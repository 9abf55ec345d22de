/**
 * The production build (`node esbuild.config.mjs --production`, what `npm run package` ships), made
 * once per test run for every file that checks it: build.test.ts runs its bundles, bundle-copies.test.ts
 * reads its metafiles, package.test.ts packs it (esbuild.config.mjs `MCP_HOST_TEST_BUILT_DIST`), and
 * the CLI tests run its cli.js. Each build took about 1.6 s of CPU, and these files built it four
 * times a run.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { oncePerRun } from './once-per-run.js';

const ROOT = resolve(__dirname, '..', '..');

export interface ShippedBuild {
  /** What `dist/` holds after the build (the bundles, their maps, `vendor/`). */
  dist: string;
  /** Each output's esbuild metafile, `<output>.json`. */
  meta: string;
}

export async function shippedBuild(): Promise<ShippedBuild> {
  const dir = await oncePerRun('shipped-build', async (out) => {
    await promisify(execFile)(
      process.execPath,
      ['esbuild.config.mjs', '--production', `--outdir=${join(out, 'dist')}`, `--metafile=${join(out, 'meta')}`],
      { cwd: ROOT },
    );
  });
  return { dist: join(dir, 'dist'), meta: join(dir, 'meta') };
}
