// One-time preparation shared by every e2e session in a process: the packaged .vsix and the
// code-server install. `npm run test:e2e` (scripts/e2e.mjs) does both before the tests start and
// passes the results in the environment; running one test file directly does them here.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const artifactsDir = join(repoRoot, 'test', 'e2e', '.artifacts');
export const fixturesDir = join(repoRoot, 'test', 'e2e', 'fixtures');

let vsix: string | undefined;

/** Path of the packaged extension: `$MCP_HOST_E2E_VSIX`, else `npm run package` once per process. */
export function packagedVsix(): string {
  const fromEnv = process.env.MCP_HOST_E2E_VSIX;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`MCP_HOST_E2E_VSIX points at a missing file: ${fromEnv}`);
    return fromEnv;
  }
  if (vsix) return vsix;
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const r = spawnSync('npm', ['run', 'package'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
  vsix = join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
  return vsix;
}

/** A code-server install: its entry.js and the Node that runs it (Node 22 after 4.100, Node 24 from 4.133). */
export interface CodeServerInstall {
  version: string;
  entry: string;
  node: string;
}

const installs = new Map<string, CodeServerInstall>();

/**
 * code-server `version` (default: scripts/code-server.mjs's CODE_SERVER_VERSION, 4.139.1), installing it into
 * .cache/ first if needed (`npm run test:e2e` has done that before the tests start).
 */
export function codeServer(version?: string): CodeServerInstall {
  const key = version ?? 'default';
  const known = installs.get(key);
  if (known) return known;
  const script = join(repoRoot, 'scripts', 'code-server.mjs');
  const r = spawnSync(process.execPath, [script, '--json', ...(version ? ['--version', version] : [])], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`installing code-server ${version ?? ''} failed:\n${r.stdout}\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  const found = JSON.parse(lines[lines.length - 1] ?? '{}') as Partial<CodeServerInstall>;
  if (!found.entry || !existsSync(found.entry) || !found.node || !existsSync(found.node) || !found.version) {
    throw new Error(`code-server install printed no usable entry:\n${r.stdout}`);
  }
  const install = { version: found.version, entry: found.entry, node: found.node };
  installs.set(key, install);
  return install;
}

/** Path of the default code-server's entry.js. */
export function codeServerEntry(): string {
  return codeServer().entry;
}

/** Debian's Chromium (DESIGN.md: Playwright's own browsers cannot be downloaded here). */
export function chromiumPath(): string {
  const candidates = [process.env.MCP_HOST_E2E_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('Chromium not found: run `apt-get install -y chromium` (or set MCP_HOST_E2E_CHROMIUM)');
  return found;
}

/** Installs a .vsix into an extensions folder with code-server's CLI. */
const checkedVsix = new Set<string>();

/**
 * code-server installs a package built for another platform without a word, and the sandbox then
 * runs without its seccomp helper: a .vsix of another platform is refused (scripts/package-targets.mjs --check).
 */
function checkVsixPlatform(vsixPath: string): void {
  if (checkedVsix.has(vsixPath)) return;
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'package-targets.mjs'), '--check', vsixPath], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr.trim() || `scripts/package-targets.mjs --check ${vsixPath} failed`);
  checkedVsix.add(vsixPath);
}

export function installExtension(
  vsixPath: string,
  extensionsDir: string,
  userDataDir: string,
  env: NodeJS.ProcessEnv,
  cs: CodeServerInstall = codeServer(),
): void {
  checkVsixPlatform(vsixPath);
  execFileSync(
    cs.node,
    [cs.entry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsixPath],
    { env, stdio: 'pipe', timeout: 120_000 },
  );
}
