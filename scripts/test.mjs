// Runs Node's test runner over every *.test.ts below the given folders (Node 20's runner has no
// glob support). Extra flags after `--` go to node --test.
//
// Every file runs inside a suite named after it with a timeout (--file-timeout=MS), so a test that
// never settles fails with its file's name instead of hanging; a watchdog stops the whole run when
// something still keeps a process alive after that (--run-timeout=MS).
//
// --one-process loads every file into one process (one tsx start-up and one load of the shared
// modules instead of one per file: most of the unit tier's time was start-up). Files that need a
// process of their own (they spawn servers, change process-wide state) run without it.
//
// The files are bundled first (scripts/lib/test-bundle.mjs) and run on plain Node; the reporter maps
// the stacks it prints back to the .ts lines (scripts/lib/mapped-spec-reporter.mjs). --tsx runs the
// sources through tsx instead.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleTests } from './lib/test-bundle.mjs';
import { bundleFixtures } from './lib/fixture-bundles.mjs';
import { keepPriority } from './lib/priority.mjs';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const own = sep === -1 ? argv : argv.slice(0, sep);
const extra = sep === -1 ? [] : argv.slice(sep + 1);

const flag = (name) => own.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const onePass = own.includes('--one-process');
const viaTsx = own.includes('--tsx');
const fileTimeout = Number(flag('file-timeout') ?? 120_000);
const runTimeout = Number(flag('run-timeout') ?? 30 * 60_000);
const dirs = own.filter((a) => !a.startsWith('--'));

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// A path may also name a single test file.
const files = dirs.flatMap((d) => (existsSync(d) && statSync(d).isFile() ? [d] : walk(d, [])));
if (files.length === 0) {
  console.error(`no test files under ${dirs.join(', ')}`);
  process.exit(1);
}

// Longest first, so the run does not end waiting on one long file started last (the runner
// starts files in name order, and the wrappers below are named in this order). Times come from
// the last run in this checkout (.tmp/test-times.json), else from scripts/test-times.json; a file
// in neither goes first.
const TIMES = resolve('.tmp', 'test-times.json');
const readTimes = (p) => (existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : {});
const known = { ...readTimes(resolve('scripts', 'test-times.json')), ...readTimes(TIMES) };
const weight = (f) => known[f] ?? Infinity;
files.sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));

// One wrapper per process: each test file's top-level tests become children of a suite with a
// timeout, because require() runs the file inside the suite's callback.
const tmp = resolve('.tmp', `test-run-${process.pid}`);
mkdirSync(tmp, { recursive: true });
// The fixture servers the integration files start, bundled beside the tests (one esbuild call each, side by side).
const fixtureLaunchers = files.some((f) => /(^|[\\/])test[\\/]integration[\\/]/.test(resolve(f)))
  ? bundleFixtures({ root: process.cwd(), outDir: join(tmp, 'fixtures') })
  : undefined;
const modules = viaTsx
  ? files.map((f) => resolve(f))
  : await bundleTests(files, { root: process.cwd(), outDir: join(tmp, 'bundles') });
const launchersFile = join(tmp, 'fixture-launchers.json');
if (fixtureLaunchers) writeFileSync(launchersFile, JSON.stringify(await fixtureLaunchers));
const moduleOf = new Map(files.map((f, i) => [f, modules[i]]));
// The gateway's files run twice, on its fast path (the default) and with it off
// (MCP_HOST_GATEWAY_FAST_PATH=0, src/core/gateway/fast-path.ts), each in a process of its own: both
// paths must give agents the same answers. Not in --one-process (the environment is per process).
const GATEWAY_FILES = /(^|[\\/])test[\\/]integration[\\/]gateway[\\/]/;
function wrapper(name, group, fullPath = false) {
  const body = group
    .map(
      (f) =>
        `describe(${JSON.stringify(fullPath ? `${f} (gateway full path)` : f)}, { timeout: ${fileTimeout} }, () => { require(${JSON.stringify(moduleOf.get(f))}); });`,
    )
    .join('\n');
  const path = join(tmp, `${name}.cjs`);
  const env = fullPath ? `process.env.MCP_HOST_GATEWAY_FAST_PATH = '0';\n` : '';
  writeFileSync(path, `${env}const { describe } = require('node:test');\n${body}\n`);
  return path;
}
const name = (f, i) => `${String(i).padStart(3, '0')}-${f.replace(/[^\w.-]+/g, '_')}`;
const entries = onePass
  ? [wrapper('all', files)]
  : [
      ...files.map((f, i) => wrapper(name(f, i), [f])),
      ...files.flatMap((f, i) => (GATEWAY_FILES.test(f) ? [wrapper(`${name(f, i)}-full-path`, [f], true)] : [])),
    ];

const loader = viaTsx ? ['--import', 'tsx'] : [];
const timesOut = join(tmp, 'times.tsv');
const reporters = [
  `--test-reporter=${resolve('scripts', 'lib', 'mapped-spec-reporter.mjs')}`,
  '--test-reporter-destination=stdout',
  `--test-reporter=${resolve('scripts', 'lib', 'test-times-reporter.mjs')}`,
  `--test-reporter-destination=${timesOut}`,
];
const child = spawn(process.execPath, [...loader, '--test', ...reporters, ...extra, ...entries], {
  stdio: 'inherit',
  // Test files may share what they build for this run here (the CLI harness's bundles); removed at the end.
  // MCP Host's per-user folder too: a host a test makes without naming one keeps its era verdicts and
  // list cache there, never in the developer's ~/.config/mcp-host (one run had written both).
  // MCP_HOST_TEST_FIXTURE_LAUNCHERS: the launcher of each bundled fixture server (test/support/fixture-servers.ts).
  env: {
    ...process.env,
    MCP_HOST_TEST_RUN_DIR: tmp,
    MCP_HOST_CONFIG_DIR: join(tmp, 'user-config'),
    ...(fixtureLaunchers ? { MCP_HOST_TEST_FIXTURE_LAUNCHERS: launchersFile } : {}),
  },
  detached: process.platform !== 'win32',
});
keepPriority(child.pid);
const stop = (signal) => {
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
};
const watchdog = setTimeout(() => {
  console.error(
    `\ntest run still going after ${runTimeout} ms (a test or a leaked handle keeps it alive); stopping it`,
  );
  stop('SIGKILL');
}, runTimeout);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => stop(s));
function saveTimes() {
  if (onePass || !existsSync(timesOut)) return;
  const times = readTimes(TIMES);
  for (const line of readFileSync(timesOut, 'utf8').split('\n')) {
    const [file, ms] = line.split('\t');
    if (file && ms) times[file] = Number(ms);
  }
  writeFileSync(TIMES, `${JSON.stringify(times, null, 1)}\n`);
}
child.on('exit', (code, signal) => {
  clearTimeout(watchdog);
  saveTimes();
  rmSync(tmp, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
