/**
 * `npm run bench` [--quick] [--only group,group]: runs every benchmark, prints a table with each
 * figure beside its same-run baseline, and writes bench/results.json. `--quick` is a smoke test
 * for CI: tiny sizes, and no figure is judged.
 */
import { writeFileSync } from 'node:fs';
import { calls } from './calls.js';
import { flood } from './flood.js';
import { footprint } from './footprint.js';
import { ide } from './ide.js';
import { scale } from './scale.js';
import { startup } from './startup.js';
import { table, type Figure } from './lib/stats.js';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;

const suites: [string, (quick: boolean) => Promise<Figure[]>][] = [
  ['footprint', footprint],
  ['startup', startup],
  ['calls', calls],
  ['scale', scale],
  ['ide', ide],
  ['flood', flood],
];

async function main(): Promise<void> {
  if (!globalThis.gc) console.warn('note: run with --expose-gc for stable heap figures (npm run bench does)');
  const figures: Figure[] = [];
  let failed = 0;
  for (const [name, run] of suites) {
    if (only && !only.has(name)) continue;
    const t0 = performance.now();
    try {
      const f = await run(quick);
      figures.push(...f);
      console.log(`[bench] ${name}: ${f.length} figures in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      failed++;
      console.error(`[bench] ${name} failed: ${err instanceof Error ? err.stack : String(err)}`);
    }
  }
  console.log('\n' + table(figures));
  if (!quick) {
    writeFileSync(
      'bench/results.json',
      JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, figures }, null, 2) + '\n',
    );
    console.log('\nwrote bench/results.json');
  }
  // Timings are never judged here; only a benchmark that could not run fails the command.
  process.exitCode = failed ? 1 : 0;
}

void main();
