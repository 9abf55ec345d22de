// `npm test`: typecheck, lint, unit and integration tests, all started at once: the
// integration tier is the longest phase and waits on the servers it starts much of the time, so
// nothing waits for it to begin. Each phase's output is printed whole when it ends (the integration
// tier's streamed as it runs), with its time; the first failure stops the others, as `&&` did.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { keepPriority, lowerPriority } from './lib/priority.mjs';
import { formatSkips, readSkips } from './lib/skip-list.mjs';

// Each phase is its package.json script, so `npm run lint` and `npm test` never drift apart.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const script = (name) => [...npm, 'run', '--silent', name];
// MCP_HOST_TEST_NICE=N runs the unit and static phases at nice N (scripts/lib/priority.mjs), to leave
// the CPU to the integration tier, the longest phase. Off by default: on a machine others load, the
// other users' sessions take what they yield (at 10, 216 s against 124 s at 0, side by side, load 11-13).
const NICE = Number(process.env.MCP_HOST_TEST_NICE ?? 0);

/** name, argv, stream (printed as it comes, else buffered and printed whole when it ends), nice. */
const phases = [
  ['integration', script('test:integration'), true, 0],
  ['unit', script('test:unit'), false, NICE],
  // `npm run typecheck` and `npm run lint` in one process over one TypeScript program (scripts/typecheck-lint.mjs).
  ['typecheck+lint', script('test:static'), false, NICE],
];

// Each tier's reporter appends the tests it skipped here (scripts/lib/skip-list.mjs), listed at the end.
mkdirSync(resolve('.tmp'), { recursive: true });
const SKIPS = resolve('.tmp', `test-skips-${process.pid}.jsonl`);
rmSync(SKIPS, { force: true });
process.env.MCP_HOST_TEST_SKIPS_FILE = SKIPS;

const started = performance.now();
const running = new Set();
const times = [];
let failed = false;

function run([name, argv, stream, nice]) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(argv[0], argv.slice(1), {
      stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    lowerPriority(child.pid, nice);
    keepPriority(child.pid);
    running.add(child);
    const out = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      running.delete(child);
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      if (!stream) process.stdout.write(Buffer.concat(out));
      const ok = code === 0;
      times.push(`${name} ${ok ? 'passed' : 'FAILED'} in ${s} s`);
      console.log(`\n[npm test] ${name} ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${s} s`);
      if (!ok && !failed) {
        failed = true;
        stopAll('SIGTERM');
      }
      resolve(ok);
    });
  });
}

function stopAll(signal) {
  for (const c of running) {
    try {
      if (process.platform === 'win32') c.kill(signal);
      else process.kill(-c.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => stopAll(s));

const results = await Promise.all(phases.map(run));
process.stdout.write(formatSkips(readSkips(SKIPS), '[npm test] skipped'));
rmSync(SKIPS, { force: true });
console.log(`\n[npm test] ${times.join('; ')}; ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
process.exit(results.every(Boolean) && !failed ? 0 : 1);
