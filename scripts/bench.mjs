// `npm run bench` / `bench:quick`: runs the benchmarks on our code built as it ships, not through
// a TypeScript loader. bench/run.ts and the heap child are bundled by esbuild the way the
// extension is (no keepNames, no minify), with every package left to node_modules, so the host and
// the bare-SDK baseline load the same SDK. Under tsx each closure our code created per call went
// through its `__name` helper, about 0.8 µs of a 20 µs in-process call the shipped host never pays.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { BENCH_BUILD } from './lib/bench-build.mjs';

await esbuild.build({
  // cli: `mcp-host serve` for the gateway group's serve row (bench/lib/serve-over-stdio.ts).
  // gateway-child: the HTTP gateway in a process of its own (bench/lib/gateway-over-http.ts).
  entryPoints: {
    run: 'bench/run.ts',
    'heap-child': 'bench/lib/heap-child.ts',
    'gateway-child': 'bench/lib/gateway-child.ts',
    // chaos-agents-child: the chaos run's gateway agents, out of the host's process (bench/lib/chaos-agents.ts).
    'chaos-agents-child': 'bench/lib/chaos-agents-child.ts',
    cli: 'src/cli/main.ts',
  },
  // Beside bench/fixtures, so `__dirname/../fixtures` means the same built or not.
  outdir: 'bench/.tmp',
  outExtension: { '.js': '.cjs' },
  ...BENCH_BUILD,
});
const r = spawnSync(
  process.execPath,
  ['--expose-gc', '--enable-source-maps', 'bench/.tmp/run.cjs', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
