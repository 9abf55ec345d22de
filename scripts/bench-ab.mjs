// `node scripts/bench-ab.mjs [--base=REF] [bench/ab-calls.ts flags]`: builds the host of REF (default
// main, from `git archive`, so no checkout is touched) and the host of this working tree as two
// bundles the way scripts/bench.mjs builds the bench (packages left to node_modules: every side loads
// the same SDK), then runs bench/ab-calls.ts with both in one process. Extra node flags (such as
// --cpu-prof) go in NODE_AB_FLAGS.
import * as esbuild from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_BUILD } from './lib/bench-build.mjs';

const base = process.argv.find((a) => a.startsWith('--base='))?.slice('--base='.length) ?? 'main';
const rest = process.argv.slice(2).filter((a) => !a.startsWith('--base='));
const out = resolve('bench/.tmp');
const common = BENCH_BUILD;
const hostEntry = (root) => ({
  stdin: {
    contents: "export { quietHost, tinyServer, definition } from './bench/lib/host.ts';",
    resolveDir: root,
    loader: 'ts',
  },
});

const tree = mkdtempSync(join(tmpdir(), 'mcp-host-ab-'));
try {
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(base)} src bench package.json | tar -x -C ${tree}`]);
  await esbuild.build({ ...common, ...hostEntry(tree), outfile: join(out, 'ab-a.cjs') });
} finally {
  rmSync(tree, { recursive: true, force: true });
}
await esbuild.build({ ...common, ...hostEntry(process.cwd()), outfile: join(out, 'ab-b.cjs') });
await esbuild.build({ ...common, entryPoints: ['bench/ab-calls.ts'], outfile: join(out, 'ab-calls.cjs') });
const flags = (process.env.NODE_AB_FLAGS ?? '').split(' ').filter(Boolean);
const r = spawnSync(process.execPath, [...flags, '--enable-source-maps', join(out, 'ab-calls.cjs'), ...rest], {
  stdio: 'inherit',
  cwd: out,
});
process.exit(r.status ?? 1);
