// The esbuild options both bench builds use (scripts/bench.mjs, scripts/bench-ab.mjs): our code
// bundled as it ships, packages left in node_modules so host and bare SDK load the same SDK.
export const BENCH_BUILD = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
};
