// The sandbox's seccomp helper in a build: src/core/sandbox/seccomp.ts (TypeScript, so bundled here
// on the fly) writes its shell script and the BPF filter of each Linux CPU into dist/vendor/seccomp,
// where the bundles look for them. One source for the build and for the tests run from the sources.
import { buildSync } from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function writeSeccompHelpers(vendorDir) {
  const entry = fileURLToPath(new URL('../../src/core/sandbox/seccomp.ts', import.meta.url));
  const { outputFiles } = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', outputFiles[0].text)(mod, mod.exports, createRequire(entry));
  for (const arch of ['x64', 'arm64']) mod.exports.writeSeccompHelper(join(vendorDir, 'seccomp', arch), arch);
}
