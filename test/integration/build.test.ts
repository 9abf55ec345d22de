import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

test('the bundle builds and the CLI prints its version', () => {
  execFileSync(process.execPath, ['esbuild.config.mjs'], { stdio: 'pipe' });
  assert.ok(existsSync('dist/extension.js'));
  const out = execFileSync(process.execPath, ['dist/cli.js', '--version'], { encoding: 'utf8' });
  assert.match(out, /^\d+\.\d+\.\d+/);
});
