// Installs code-server (VS Code for the browser) into .cache/, the real VS Code our end-to-end
// tests and `npm start` run in. @vscode/test-electron / test-web download VS Code from the
// internet; code-server comes from the npm registry, which is all we can reach.
//
// The default is the current release, 4.139.1 (VS Code 1.139.1), in .cache/code-server-4.139.1; it
// runs on Node 24. The lowest supported one, 4.100.3 (VS Code 1.100.3, `engines.vscode`), keeps its
// old place .cache/code-server and runs on this machine's Node 20. Releases after 4.100 need Node
// 22 and from 4.133 on Node 24; scripts/lib/node22.mjs installs those from npm into .cache/node<N>.
//
// The steps are the ones DESIGN.md ("Test environment facts") found to work on Debian. The npm
// package ships without VS Code's own node_modules, so we install them, rebuild the native modules
// for the Node that will run it, and add the links its launcher scripts expect.
//
// Idempotent: a marker file written last says "complete"; an interrupted install is redone from a
// clean folder. Concurrent runs (two engineers' test runs) are serialised with flock(1).
//
//   node scripts/code-server.mjs [--version V]          install if needed, print the entry path
//   node scripts/code-server.mjs [--version V] --json   … then print {"version","entry","node"}
//   node scripts/code-server.mjs [--version V] --check  exit 0 if installed, 1 if not (no changes)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNpmNode, npmNode, npmNodeEnv } from './lib/node22.mjs';

/** The release the e2e suite runs by default: the current VS Code. */
export const CODE_SERVER_VERSION = '4.139.1';
/** The lowest supported release (VS Code 1.100, `engines.vscode`): the e2e smoke set runs on it. */
export const CODE_SERVER_OLDEST = '4.100.3';
/** The first release we ran whose VS Code (1.103.2) has `vscode.lm.registerMcpServerDefinitionProvider`. */
export const CODE_SERVER_WITH_MCP_API = '4.103.2';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The Node major a release needs beyond this machine's: 24 from 4.133, 22 after 4.100, else undefined. */
export function nodeMajorFor(version) {
  const [major = 0, minor = 0] = version.split('.').map((p) => Number.parseInt(p, 10));
  if (major > 4 || (major === 4 && minor >= 133)) return 24;
  if (major === 4 && minor > 100) return 22;
  return undefined;
}

/** True for releases that need a Node from npm (VS Code 1.101 and later). */
export function needsNode22(version) {
  return nodeMajorFor(version) !== undefined;
}

/** Where a version lives and which Node runs it. */
export function codeServerPaths(version = CODE_SERVER_VERSION) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a code-server version: ${version}`);
  // 4.100.3 keeps the folder it always had, so worktrees on older scripts share the same install.
  const installDir = join(repo, '.cache', version === CODE_SERVER_OLDEST ? 'code-server' : `code-server-${version}`);
  const nodeMajor = nodeMajorFor(version);
  const pkgDir = join(installDir, 'node_modules', 'code-server');
  return {
    version,
    installDir,
    marker: join(installDir, `.installed-${version}`),
    pkgDir,
    entryPath: join(pkgDir, 'out', 'node', 'entry.js'),
    vscodeDir: join(pkgDir, 'lib', 'vscode'),
    node: nodeMajor ? npmNode(nodeMajor).bin : process.execPath,
  };
}

export const { installDir, entryPath } = codeServerPaths();

/** True when a complete install of `version` is present. */
export function isInstalled(version = CODE_SERVER_VERSION) {
  const p = codeServerPaths(version);
  return existsSync(p.marker) && existsSync(p.entryPath) && existsSync(p.node);
}

function log(msg) {
  console.log(`[code-server] ${msg}`);
}

/** The environment of every install step; set by install() for the version at hand. */
let baseEnv = process.env;

function run(cmd, args, cwd, extraEnv = {}) {
  log(`$ (cd ${cwd.replace(repo + '/', '')}) ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...baseEnv,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      ...extraEnv,
    },
  });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${r.status ?? r.signal})`);
  log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function link(target, path) {
  try {
    lstatSync(path);
    rmSync(path, { force: true, recursive: false });
  } catch {
    // not there yet
  }
  symlinkSync(target, path);
}

/**
 * Debian packages the install needs: rg for VS Code's search, krb5 headers for the kerberos module,
 * and what node-gyp builds that module with (a machine with only Node and npm may lack them; said in
 * one line before npm fails deep in a native build).
 */
function checkPrerequisites() {
  const missing = [];
  if (!existsSync('/usr/bin/rg')) missing.push('ripgrep');
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  const onPath = (cmd) => (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, cmd)));
  if (!onPath('make') || !onPath('g++')) missing.push('build-essential');
  if (!onPath('python3')) missing.push('python3');
  if (missing.length === 0) return;
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  run('apt-get', ['install', '-y', '-q', ...missing], repo, { DEBIAN_FRONTEND: 'noninteractive' });
}

function install(version) {
  checkPrerequisites();
  const { installDir, marker, entryPath, vscodeDir } = codeServerPaths(version);
  // Native modules must be built for the Node that runs code-server: for Node 22/24 every npm step
  // runs under it with its headers (npmNodeEnv), so nothing is downloaded from nodejs.org.
  const nodeMajor = nodeMajorFor(version);
  baseEnv = nodeMajor ? npmNodeEnv(nodeMajor, process.env) : process.env;
  if (nodeMajor) ensureNpmNode(nodeMajor, log);
  log(`installing code-server ${version} into ${installDir}`);
  // A partial install (no marker) is unreliable: start over from an empty folder.
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  writeFileSync(
    join(installDir, 'package.json'),
    JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n',
  );

  run('npm', ['install', `code-server@${version}`, '--ignore-scripts'], installDir);
  run('npm', ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);

  // @vscode/ripgrep's postinstall downloads rg from GitHub; use Debian's binary instead.
  const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgDir, { recursive: true });
  copyFileSync('/usr/bin/rg', join(rgDir, 'rg'));
  chmodSync(join(rgDir, 'rg'), 0o755);
  log('copied /usr/bin/rg into @vscode/ripgrep');

  run('npm', ['rebuild'], vscodeDir, { npm_config_yes: 'true' });
  link('node_modules', join(vscodeDir, 'node_modules.asar'));
  link('code-linux.sh', join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  link('browser-linux.sh', join(vscodeDir, 'bin', 'helpers', 'browser.sh'));
  log('linked node_modules.asar, remote-cli/code-server, helpers/browser.sh');

  run('npm', ['install', '--omit=dev'], join(vscodeDir, 'extensions'));
  run('npm', ['rebuild', 'argon2'], installDir);

  if (!existsSync(entryPath)) throw new Error(`install finished but ${entryPath} is missing`);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  log(`installed: ${entryPath}`);
}

function report(version, json) {
  const p = codeServerPaths(version);
  console.log(json ? JSON.stringify({ version, entry: p.entryPath, node: p.node }) : p.entryPath);
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--version');
  const version = at >= 0 ? args[at + 1] : CODE_SERVER_VERSION;
  const json = args.includes('--json');
  let paths;
  try {
    paths = codeServerPaths(version);
  } catch (err) {
    console.error(`[code-server] ${err.message} (usage: --version X.Y.Z)`);
    process.exit(2);
  }
  if (args.includes('--check')) process.exit(isInstalled(version) ? 0 : 1);
  if (isInstalled(version)) {
    log(`${version} already installed (${paths.marker.replace(repo + '/', '')}); skipping`);
    report(version, json);
    return;
  }
  if (!process.env.MCP_HOST_CODE_SERVER_LOCKED) {
    // Serialise installs: re-run this script under an exclusive lock; the locked run re-checks
    // the marker, so the second of two concurrent runs finds the work done. One lock for every
    // version: two installs at once would only fight over 2 cores and the npm cache.
    mkdirSync(join(repo, '.cache'), { recursive: true });
    const lockFile = join(repo, '.cache', 'code-server.lock');
    log('waiting for the install lock');
    const r = spawnSync('flock', [lockFile, process.execPath, fileURLToPath(import.meta.url), ...args], {
      stdio: 'inherit',
      env: { ...process.env, MCP_HOST_CODE_SERVER_LOCKED: '1' },
    });
    if (r.error) throw new Error(`flock could not start (util-linux): ${r.error.message}`);
    process.exit(r.status ?? 1);
  }
  const started = Date.now();
  try {
    install(version);
  } catch (err) {
    console.error(`[code-server] install of ${version} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  log(`install took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  report(version, json);
}

// Run only when executed, not when imported (the e2e runner imports the paths).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
