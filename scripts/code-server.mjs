// Installs code-server 4.100.3 (VS Code 1.100.3 for the browser) into .cache/code-server, the real
// VS Code our end-to-end tests and `npm start` run in. @vscode/test-electron / test-web download
// VS Code from the internet; code-server comes from the npm registry, which is all we can reach.
//
// The steps are the ones DESIGN.md ("Test environment facts") found to work on Debian + Node 20.
// The npm package ships without VS Code's own node_modules, so we install them, rebuild the native
// modules for this Node, and add the links its launcher scripts expect.
//
// Idempotent: a marker file written last says "complete"; an interrupted install is redone from a
// clean folder. Concurrent runs (two engineers' test runs) are serialised with flock(1).
//
//   node scripts/code-server.mjs            install if needed, print the entry path
//   node scripts/code-server.mjs --check    exit 0 if installed, 1 if not (no changes)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync, lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const installDir = join(repo, '.cache', 'code-server');
const marker = join(installDir, `.installed-${CODE_SERVER_VERSION}`);
const pkgDir = join(installDir, 'node_modules', 'code-server');
export const entryPath = join(pkgDir, 'out', 'node', 'entry.js');
const vscodeDir = join(pkgDir, 'lib', 'vscode');

/** True when a complete install of the pinned version is present. */
export function isInstalled() {
  return existsSync(marker) && existsSync(entryPath);
}

function log(msg) {
  console.log(`[code-server] ${msg}`);
}

function run(cmd, args, cwd, extraEnv = {}) {
  log(`$ (cd ${cwd.replace(repo + '/', '')}) ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extraEnv },
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

/** Debian packages the install needs: rg for VS Code's search, krb5 headers for the kerberos module. */
function checkPrerequisites() {
  const missing = [];
  if (!existsSync('/usr/bin/rg')) missing.push('ripgrep');
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  if (missing.length === 0) return;
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    throw new Error(`missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`);
  }
  run('apt-get', ['install', '-y', '-q', ...missing], repo, { DEBIAN_FRONTEND: 'noninteractive' });
}

function install() {
  checkPrerequisites();
  log(`installing code-server ${CODE_SERVER_VERSION} into ${installDir}`);
  // A partial install (no marker) is unreliable: start over from an empty folder.
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }, null, 2) + '\n');

  run('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts'], installDir);
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

function main() {
  const args = process.argv.slice(2);
  if (args.includes('--check')) process.exit(isInstalled() ? 0 : 1);
  if (isInstalled()) {
    log(`${CODE_SERVER_VERSION} already installed (${marker.replace(repo + '/', '')}); skipping`);
    console.log(entryPath);
    return;
  }
  if (!process.env.MCP_HOST_CODE_SERVER_LOCKED) {
    // Serialise installs: re-run this script under an exclusive lock; the locked run re-checks
    // the marker, so the second of two concurrent runs finds the work done.
    mkdirSync(dirname(installDir), { recursive: true });
    const lockFile = join(dirname(installDir), 'code-server.lock');
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
    install();
  } catch (err) {
    console.error(`[code-server] install failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  log(`install took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(entryPath);
}

// Run only when executed, not when imported (the e2e runner imports the paths).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

