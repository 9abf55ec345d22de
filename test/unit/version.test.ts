import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { VERSION } from '../../src/core/version.js';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };

test('from source (tsx) the version is package.json’s', () => {
  assert.equal(VERSION, pkg.version);
});

test('a bundle gets the version esbuild defines, not a number written in the code', () => {
  const out = buildSync({
    entryPoints: [join(__dirname, '..', '..', 'src', 'core', 'version.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    define: { __MCP_HOST_VERSION__: JSON.stringify('9.8.7') },
  });
  const mod: { exports: { VERSION?: string } } = { exports: {} };
  new Function('module', 'exports', 'require', '__dirname', out.outputFiles[0]!.text)(
    mod,
    mod.exports,
    require,
    '/nowhere',
  );
  assert.equal(mod.exports.VERSION, '9.8.7');
});

test('no other version literal is left in src', () => {
  const hits: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && readFileSync(p, 'utf8').includes(`'${pkg.version}'`)) hits.push(p);
    }
  };
  walk(join(__dirname, '..', '..', 'src'));
  assert.deepEqual(hits, []);
});

test('CHANGELOG.md has a section for the version package.json gives (semver), and the lock file agrees', () => {
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
  const changelog = readFileSync(join(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8');
  const sections = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
  assert.ok(sections.includes(pkg.version), `CHANGELOG.md has no "## ${pkg.version}" section: ${sections.join(', ')}`);
  const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8')) as {
    version: string;
    packages: Record<string, { version?: string }>;
  };
  assert.equal(lock.version, pkg.version);
  assert.equal(lock.packages['']?.version, pkg.version);
});

test('the per-platform .vsix files are named by the version', async () => {
  const { targetVsix } = (await import(join(__dirname, '..', '..', 'scripts', 'package-targets.mjs'))) as {
    targetVsix: (target: string) => string;
  };
  assert.equal(targetVsix('linux-x64'), `mcp-host-${pkg.version}-linux-x64.vsix`);
});
