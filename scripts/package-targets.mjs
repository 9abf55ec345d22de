// Platform-specific packages: `mcp-host-<version>-<target>.vsix`, each carrying only the sandbox
// helper its platform runs (dist/vendor/seccomp/<arch>/: MCP Host's apply-seccomp script and that
// CPU's BPF filter, src/core/sandbox/seccomp.ts; macOS sandboxes with sandbox-exec and Windows
// servers are not sandboxed, so those packages carry none). The Marketplace gives each user the
// package of their platform; the universal `npm run package` build (both helpers) stays for
// installing by hand anywhere. Every package is packed from a staged copy whose bundles are stored
// brotli-compressed (scripts/lib/compact-package.mjs).
//
//   node scripts/package-targets.mjs [--target=linux-x64,darwin-arm64|--target=host] [--no-build]
//   node scripts/package-targets.mjs --check FILE.vsix
//
// `--no-build` packages the dist/ already built by `npm run package`. `--check` exits 1, naming the
// package to install instead, when FILE is built for another platform than this machine's: VS Code and
// code-server install such a package without a word, and on Linux its sandbox then runs without the seccomp
// helper (Unix sockets no longer blocked).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactStage } from './lib/compact-package.mjs';

const repo = join(import.meta.dirname, '..');
const { name, version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

/** Every target VS Code installs a Node extension on, and the seccomp helper folder each runs. */
export const TARGETS = {
  'linux-x64': 'x64',
  'linux-arm64': 'arm64',
  'alpine-x64': 'x64',
  'alpine-arm64': 'arm64',
  'linux-armhf': undefined,
  'darwin-x64': undefined,
  'darwin-arm64': undefined,
  'win32-x64': undefined,
  'win32-arm64': undefined,
};

/** The target of the machine this runs on (glibc or musl Linux told apart by the loader's report). */
export function hostTarget() {
  const os =
    process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime
      ? 'alpine'
      : process.platform;
  return `${os}-${process.arch === 'arm' ? 'armhf' : process.arch}`;
}

/**
 * The universal .vscodeignore with its `!dist/vendor/**` line narrowed to what `target` runs: vsce
 * applies every `!` line after every exclusion, so the narrowing has to replace that line.
 */
function ignoreFor(target) {
  const universal = readFileSync(join(repo, '.vscodeignore'), 'utf8');
  const line = '!dist/vendor/**';
  if (!universal.split('\n').includes(line))
    throw new Error(`.vscodeignore has no "${line}" line to narrow per target`);
  const arch = TARGETS[target];
  const keep = target.startsWith('win32-')
    ? []
    : ['!dist/vendor/java-proxy-agent/**', ...(arch ? [`!dist/vendor/seccomp/${arch}/**`] : [])];
  return universal.replace(line, keep.join('\n'));
}

/** What every package is made with: no dependencies (the bundles hold them), no repository or licence prompts, links as written. */
const VSCE_OPTIONS = {
  dependencies: false,
  allowMissingRepository: true,
  skipLicense: true,
  rewriteRelativeLinks: false,
};

export const targetVsix = (target) => `${name}-${version}-${target}.vsix`;

/**
 * vsce lists every file under the folder it packs (all but node_modules) and matches each against
 * every ignore pattern, compiling the pattern again each time: about half a second of CPU a target
 * here, nearly all of it on files no package carries (sources, tests, the tests' run folders). So
 * the targets are packed from a folder holding copies of only the top-level entries the allow-list
 * (the `!` lines of .vscodeignore) names; the repository itself when a line's first part is a pattern.
 */
function stage(dir) {
  const allowed = readFileSync(join(repo, '.vscodeignore'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1));
  const kept = allowed.map((l) => l.split('/')[0]);
  // Packed as it is, then: the copies below are also what scripts/lib/compact-package.mjs rewrites.
  if (kept.some((n) => /[*?[\]{}]/.test(n))) return repo;
  const staged = join(dir, 'stage');
  for (const entry of new Set(kept))
    if (existsSync(join(repo, entry))) cpSync(join(repo, entry), join(staged, entry), { recursive: true });
  compactStage(staged, allowed);
  return staged;
}

/** The platform a .vsix is built for (its manifest's TargetPlatform), or undefined for a universal one. */
export async function vsixTarget(file) {
  // vsce's own reader of the packages it writes.
  const { readZip } = createRequire(import.meta.url)('@vscode/vsce/out/zip');
  const entries = await readZip(file, (n) => n === 'extension.vsixmanifest');
  const xml = entries.get('extension.vsixmanifest')?.toString('utf8');
  if (xml === undefined)
    throw new Error(`${file} is not a VS Code extension package: it has no extension.vsixmanifest`);
  return /<Identity\b[^>]*\bTargetPlatform="([^"]+)"/.exec(xml)?.[1];
}

/** Why `file` would not run right on this machine, or undefined when it would (its platform's or universal). */
export async function wrongPlatform(file) {
  const target = await vsixTarget(file);
  const host = hostTarget();
  if (target === undefined || target === host) return undefined;
  return `${file} is built for ${target}, and this machine is ${host}: install ${targetVsix(host)} (npm run package:targets -- --target=host) or the universal ${name}-${version}.vsix (npm run package)`;
}

async function main() {
  const check = process.argv.indexOf('--check');
  if (check !== -1) {
    const file = process.argv[check + 1];
    if (!file) {
      console.error('--check takes the .vsix to check');
      process.exit(2);
    }
    const problem = await wrongPlatform(file).catch((err) => {
      console.error(`${file}: cannot read it as a .vsix: ${err.message}`);
      process.exit(2);
    });
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
    console.log(`${file}: for ${(await vsixTarget(file)) ?? 'every platform'}, so for this machine (${hostTarget()})`);
    return;
  }
  if (process.argv.includes('--universal')) {
    await packUniversal();
    return;
  }
  const arg = process.argv.find((a) => a.startsWith('--target='))?.slice('--target='.length);
  const targets = !arg ? Object.keys(TARGETS) : arg === 'host' ? [hostTarget()] : arg.split(',');
  const unknown = targets.filter((t) => !(t in TARGETS));
  if (unknown.length) {
    console.error(`unknown target ${unknown.join(', ')}; one of ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: repo, stdio: 'inherit' });
  if (!process.argv.includes('--no-build')) {
    // vsce's API, once for every target.
    run(process.execPath, ['esbuild.config.mjs', '--production']);
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-package-'));
  try {
    // vsce's API, once for every target: the options of `npm run package`.
    const { createVSIX } = createRequire(import.meta.url)('@vscode/vsce');
    const cwd = stage(dir);
    for (const target of targets) {
      const ignoreFile = join(dir, `${target}.vscodeignore`);
      writeFileSync(ignoreFile, ignoreFor(target));
      await createVSIX({ ...VSCE_OPTIONS, cwd, target, ignoreFile, packagePath: join(repo, targetVsix(target)) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const host = hostTarget();
  if (targets.includes(host)) console.log(`this machine (${host}): code --install-extension ${targetVsix(host)}`);
}

/**
 * `npm run package`: the universal package (every platform's helpers), from the same staged folder
 * as the targets, with the repository's .vscodeignore. Packing the checkout itself made vsce match
 * every file of a checkout with code-server in .cache (a few hundred thousand) against the allow-list.
 */
async function packUniversal() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-package-'));
  try {
    const { createVSIX } = createRequire(import.meta.url)('@vscode/vsce');
    await createVSIX({
      ...VSCE_OPTIONS,
      cwd: stage(dir),
      ignoreFile: join(repo, '.vscodeignore'),
      packagePath: join(repo, `${name}-${version}.vsix`),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
