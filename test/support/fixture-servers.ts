/**
 * The script to start a fixture server (or server-everything) with: the launcher scripts/test.mjs
 * built for its source this run (a bundle started from a V8 code cache, scripts/lib/fixture-bundles.mjs),
 * else the source itself (a run without the launchers, such as `node --test` by hand).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const codeCache = require(resolve(__dirname, '..', '..', 'scripts', 'lib', 'code-cache.cjs')) as {
  launcherSource(bundle: string, esm?: boolean): string;
};

/**
 * The text of a launcher that runs a CommonJS bundle from a V8 code cache (scripts/lib/code-cache.cjs);
 * `bundle` is the bundle's path from the launcher's folder.
 */
export const launcherSource = (bundle: string): string => codeCache.launcherSource(bundle);

let launchers: Record<string, string> | undefined;

export function serverScript(source: string): string {
  const file = process.env.MCP_HOST_TEST_FIXTURE_LAUNCHERS;
  if (!file) return source;
  launchers ??= JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return launchers[resolve(source)] ?? source;
}
