/**
 * `npm run bench` [--quick] [--only=group,group]: runs every benchmark, prints a table with each
 * figure beside its same-run baseline, and writes bench/results.json when the run was complete
 * (see lib/results.ts). `--quick` is a smoke test for CI: tiny sizes, and no figure is judged.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resultsFile, withBenchTable, type Results } from './lib/results.js';
import { table, type Figure } from './lib/stats.js';
import { suites } from './suites.js';

const quick = process.argv.includes('--quick');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
/** `--group-child=name:file`: this process runs one group for its parent and writes its figures to file. */
const childArg = process.argv.find((a) => a.startsWith('--group-child='))?.slice('--group-child='.length);

/**
 * Groups that judge the process's own memory (heap and RSS growth, handle counts) run in a process
 * of their own: after the groups before them, the allocator's state is theirs (a complete run's
 * chaos RSS figure moved with what the earlier groups had left behind).
 */
const OWN_PROCESS = new Set(['chaos', 'soak']);

function inOwnProcess(name: string): Figure[] {
  const out = join(userConfig, `${name}-figures.json`);
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, __filename, `--group-child=${name}:${out}`, ...(quick ? ['--quick'] : [])],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`the ${name} group's process ended with ${r.status ?? r.signal}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Figure[];
}

// MCP Host's per-user folder for this run (era verdicts, list caches of the hosts and `serve`
// processes it starts, which inherit it), not the developer's ~/.config/mcp-host.
const userConfig = mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
process.env.MCP_HOST_CONFIG_DIR = userConfig;
process.on('exit', () => rmSync(userConfig, { recursive: true, force: true }));

async function runChild(spec: string): Promise<void> {
  const [name, out] = [spec.slice(0, spec.indexOf(':')), spec.slice(spec.indexOf(':') + 1)];
  const suite = suites.find(([n]) => n === name);
  if (!suite) throw new Error(`no such group: ${name}`);
  writeFileSync(out, JSON.stringify(await suite[1](quick)));
}

async function main(): Promise<void> {
  if (!globalThis.gc) console.warn('note: run with --expose-gc for stable heap figures (npm run bench does)');
  const figures: Figure[] = [];
  let failed = 0;
  for (const [name, run] of suites) {
    if (only && !only.has(name)) continue;
    const t0 = performance.now();
    try {
      const f = OWN_PROCESS.has(name) ? inOwnProcess(name) : await run(quick);
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

if (childArg)
  runChild(childArg).catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack : String(err));
    process.exitCode = 1;
  });
else void main();
