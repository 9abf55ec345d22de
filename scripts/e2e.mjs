// `npm run test:e2e`: packages the extension, installs code-server if needed, then runs the
// end-to-end tests (test/e2e/**/*.e2e.test.ts) one file at a time in real VS Code.
//
//   node scripts/e2e.mjs                          every e2e test
//   node scripts/e2e.mjs test/e2e/foo.e2e.test.ts  only these files
//   node scripts/e2e.mjs -- --test-name-pattern=X  extra flags for node --test
//
// The harness (test/e2e/harness.ts) reads the packaged .vsix from MCP_HOST_E2E_VSIX, so the build
// happens once here and not in every test file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const fileArgs = sep === -1 ? argv : argv.slice(0, sep);
const extra = sep === -1 ? [] : argv.slice(sep + 1);

function phase(name, fn) {
  const started = Date.now();
  console.log(`[e2e] ${name}…`);
  fn();
  console.log(`[e2e] ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function mustRun(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[e2e] ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name === '.artifacts' || name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.e2e.test.ts')) out.push(relative(repo, p));
  }
  return out;
}

const files = fileArgs.length > 0 ? fileArgs : walk(join(repo, 'test', 'e2e'), []);
if (files.length === 0) {
  console.error('[e2e] no test/e2e/**/*.e2e.test.ts files');
  process.exit(1);
}
if (!existsSync(process.env.MCP_HOST_E2E_CHROMIUM ?? '/usr/bin/chromium')) {
  console.error(
    '[e2e] Chromium not found at /usr/bin/chromium: run `apt-get install -y chromium` (or set MCP_HOST_E2E_CHROMIUM)',
  );
  process.exit(1);
}

const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const vsix = join(repo, `${pkg.name}-${pkg.version}.vsix`);
phase('build and package', () => mustRun('npm', ['run', 'package']));
if (!existsSync(vsix)) {
  console.error(`[e2e] npm run package did not produce ${vsix}`);
  process.exit(1);
}
phase('code-server', () => mustRun(process.execPath, [join(repo, 'scripts', 'code-server.mjs')]));
// Files that run another release say so as `codeServer: 'X.Y.Z'` (harness StartOptions); install
// those here too, so no test spends its own time budget on an install.
const versions = new Set(
  files.flatMap((f) =>
    [...readFileSync(resolve(repo, f), 'utf8').matchAll(/\bcodeServer:\s*'(\d+\.\d+\.\d+)'/g)].map((m) => m[1]),
  ),
);
for (const v of versions)
  phase(`code-server ${v}`, () =>
    mustRun(process.execPath, [join(repo, 'scripts', 'code-server.mjs'), '--version', v]),
  );

console.log(`[e2e] running ${files.length} file(s): ${files.join(' ')}`);
const started = Date.now();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...extra, ...files],
  { cwd: repo, stdio: 'inherit', env: { ...process.env, MCP_HOST_E2E_VSIX: vsix } },
);
// Ctrl+C reaches the whole foreground group: let the test processes clean up, then report.
// A signal sent to this process alone is passed on.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (sig !== 'SIGINT') child.kill(sig);
  });
}
child.on('exit', (code, signal) => {
  console.log(
    `[e2e] tests: ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots and logs in test/e2e/.artifacts/`,
  );
  process.exit(code ?? (signal ? 1 : 0));
});
