// `npm start`: serves browser VS Code (code-server 4.139.1, scripts/code-server.mjs's default) on 127.0.0.1 with this repository's
// extension loaded live, on the demo/ workspace, and prints the URL to open.
//
// Live development: the extensions folder holds a symlink to the repo (no .vsix), and esbuild
// watches src/. After a change, run "Developer: Reload Window" in the browser to load the new build.
//
//   npm start                       OS-chosen port
//   npm start -- --port 8080        fixed port
//   npm start -- --folder PATH      another workspace
//   npm start -- --no-watch         build once, no watcher
//
// State (user settings, SecretStorage, approvals) persists in .cache/start/ between runs; delete
// that folder for a fresh profile. Ctrl+C stops code-server's whole process tree and the watcher.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeServerPaths } from './code-server.mjs';
import { tsImport } from 'tsx/esm/api';

// The process-tree kill is core's, the one the extension uses for stdio servers.
const { processTree, signalTree } = await tsImport('../src/core/connection/process-tree.ts', import.meta.url);

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function option(name) {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
const port = Number(option('--port') ?? process.env.MCP_HOST_PORT ?? 0);
const folder = resolve(option('--folder') ?? join(repo, 'demo'));
const watch = !args.includes('--no-watch');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`[start] --port must be 0..65535, got ${option('--port')}`);
  process.exit(2);
}
if (!existsSync(folder)) {
  console.error(`[start] workspace folder not found: ${folder}`);
  process.exit(2);
}

function mustRun(label, cmd, cmdArgs) {
  const started = Date.now();
  console.log(`[start] ${label}…`);
  const r = spawnSync(cmd, cmdArgs, { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[start] ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  console.log(`[start] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

mustRun('build', 'npm', ['run', 'build']);
mustRun('code-server', process.execPath, [join(repo, 'scripts', 'code-server.mjs')]);
const { entryPath: entry, node: codeServerNode } = codeServerPaths();

const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const state = join(repo, '.cache', 'start');
const extensionsDir = join(state, 'extensions');
const userDataDir = join(state, 'user-data');
// The extensions folder is rebuilt each run: one symlink, named publisher.name-version as VS Code
// expects, and no extensions.json left over from an older version.
rmSync(extensionsDir, { recursive: true, force: true });
mkdirSync(extensionsDir, { recursive: true });
symlinkSync(repo, join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`));
mkdirSync(join(userDataDir, 'User'), { recursive: true });
const settingsFile = join(userDataDir, 'User', 'settings.json');
if (!existsSync(settingsFile)) {
  writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        // The demo is this repo's own folder; MCP Host still asks before starting its servers.
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
      },
      null,
      2,
    ) + '\n',
  );
}

const children = [];
let stopping = false;

function stop(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n[start] stopping…');
  const trees = children.filter((c) => c.pid).map((c) => ({ pid: c.pid, pids: processTree(c.pid) }));
  for (const t of trees) signalTree(t.pids, 'SIGTERM', t.pid);
  setTimeout(() => {
    for (const t of trees) signalTree(new Set([...t.pids, ...processTree(t.pid)]), 'SIGKILL', t.pid);
    process.exit(code);
  }, 1500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('SIGHUP', () => stop(0));

if (watch) {
  // Own process group, like code-server, so stop() handles both the same way.
  const w = spawn(process.execPath, [join(repo, 'esbuild.config.mjs'), '--watch'], {
    cwd: repo,
    stdio: 'inherit',
    detached: true,
  });
  children.push(w);
}

const server = spawn(
  codeServerNode,
  [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--config',
    join(state, 'code-server.yaml'),
    '--extensions-dir',
    extensionsDir,
    '--user-data-dir',
    userDataDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    folder,
  ],
  { cwd: repo, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
);
children.push(server);
let printed = false;
let buffered = '';
function onOutput(chunk) {
  process.stdout.write(chunk);
  if (printed) return;
  buffered += chunk;
  const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(buffered);
  if (m) {
    printed = true;
    const url = `${m[1]}/?folder=${encodeURIComponent(folder)}`;
    console.log(`\n[start] MCP Host is running in browser VS Code. Open:\n\n    ${url}\n\n[start] Ctrl+C stops it.\n`);
  }
}
server.stdout.setEncoding('utf8').on('data', onOutput);
server.stderr.setEncoding('utf8').on('data', onOutput);
server.on('exit', (code, sig) => {
  if (stopping) return;
  console.error(`[start] code-server exited (${code ?? sig})`);
  stop(1);
});
