// Platform-specific packages: `mcp-host-<version>-<target>.vsix`, each carrying only the sandbox
// helper its platform runs (dist/vendor/seccomp/<arch>/apply-seccomp, a static Linux binary of
// 0.6–0.75 MB; macOS sandboxes with sandbox-exec and Windows servers are not sandboxed, so those
// packages carry none). The Marketplace gives each user the package of their platform; the
// universal `npm run package` build (both helpers) stays for installing by hand anywhere.
//
//   node scripts/package-targets.mjs [--target=linux-x64,darwin-arm64|--target=host] [--no-build]
//
// `--no-build` packages the dist/ already built by `npm run package`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export const targetVsix = (target) => `${name}-${version}-${target}.vsix`;

async function main() {
  const arg = process.argv.find((a) => a.startsWith('--target='))?.slice('--target='.length);
  const targets = !arg ? Object.keys(TARGETS) : arg === 'host' ? [hostTarget()] : arg.split(',');
  const unknown = targets.filter((t) => !(t in TARGETS));
  if (unknown.length) {
    console.error(`unknown target ${unknown.join(', ')}; one of ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: repo, stdio: 'inherit' });
  if (!process.argv.includes('--no-build')) {
    run(process.execPath, ['scripts/gen-schema.mjs']);
    run(process.execPath, ['esbuild.config.mjs', '--production']);
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-package-'));
  try {
    // vsce's API, once for every target: the options of `npm run package`.
    const { createVSIX } = createRequire(import.meta.url)('@vscode/vsce');
    for (const target of targets) {
      const ignoreFile = join(dir, `${target}.vscodeignore`);
      writeFileSync(ignoreFile, ignoreFor(target));
      await createVSIX({
        cwd: repo,
        target,
        ignoreFile,
        packagePath: join(repo, targetVsix(target)),
        dependencies: false,
        allowMissingRepository: true,
        skipLicense: true,
        rewriteRelativeLinks: false,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();
