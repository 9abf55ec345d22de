/**
 * `npm run bench` [--quick] [--only=group,group]: runs every benchmark, prints a table with each
 * figure beside its same-run baseline, and writes bench/results.json when the run was complete
 * (see lib/results.ts). `--quick` is a smoke test for CI: tiny sizes, and no figure is judged.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resultsFile, withBenchTable, type Results } from './lib/results.js';
import { table, type Figure } from './lib/stats.js';
import { suites } from './suites.js';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;

// MCP Host's per-user folder for this run (era verdicts, list caches of the hosts and `serve`
// processes it starts, which inherit it), not the developer's ~/.config/mcp-host.
const userConfig = mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
process.env.MCP_HOST_CONFIG_DIR = userConfig;
process.on('exit', () => rmSync(userConfig, { recursive: true, force: true }));

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
  if (only) {
    const unknown = [...only].filter((name) => !suites.some(([n]) => n === name));
    if (unknown.length)
      console.error(`[bench] no such group: ${unknown.join(', ')} (groups: ${suites.map(([n]) => n).join(', ')})`);
  }
  const out = resultsFile({ quick, only, failedGroups: failed });
  const groups = [...new Set(figures.map((f) => f.group))];
  const results: Results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    complete: out.complete,
    figures,
  };
  mkdirSync(dirname(out.path), { recursive: true });
  writeFileSync(out.path, JSON.stringify({ ...results, groups }, null, 2) + '\n');
  console.log(
    `\nwrote ${out.path}${out.complete ? '' : ' (a partial or quick run never replaces bench/results.json)'}`,
  );
  if (out.complete) {
    writeFileSync('bench/README.md', withBenchTable(readFileSync('bench/README.md', 'utf8'), results));
    console.log('updated the benchmark table in bench/README.md');
  }
  // Timings are never judged here; only a benchmark that could not run fails the command.
  process.exitCode = failed ? 1 : 0;
}

void main();
