/** Bundle and package sizes, and the time Node takes to load the bundle, against a bare require of the SDK client. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { activation } from './activation.js';
import { requireMs, vscodeStub } from './lib/require-time.js';
import { figure, type Figure } from './lib/stats.js';

export async function footprint(quick: boolean): Promise<Figure[]> {
  const out: Figure[] = [];
  const { name, version } = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
  const universal = `${name}-${version}.vsix`;
  // What a user of this machine's platform gets from the Marketplace (scripts/package-targets.mjs).
  const targets = (await import(join(process.cwd(), 'scripts/package-targets.mjs'))) as {
    hostTarget: () => string;
    targetVsix: (target: string) => string;
  };
  const target = targets.hostTarget();
  const own = targets.targetVsix(target);
  if (!quick || !existsSync('dist/extension.js') || !existsSync(universal)) {
    execFileSync('npm', ['run', 'package', '--silent'], { stdio: 'ignore' });
  }
  if (!quick || !existsSync(own)) {
    execFileSync(process.execPath, ['scripts/package-targets.mjs', `--target=${target}`, '--no-build'], {
      stdio: 'ignore',
    });
  }
  const ext = statSync('dist/extension.js').size / 1024;
  out.push(
    figure('footprint', 'dist/extension.js size', ext, 'KB', undefined, { text: '< 1400 KB', ok: (v) => v < 1400 }),
  );
  out.push(
    figure('footprint', `.vsix size (${target})`, statSync(own).size / 1024, 'KB', undefined, {
      text: '< 600 KB',
      ok: (v) => v < 600,
    }),
    figure('footprint', '.vsix size (universal: every sandbox helper)', statSync(universal).size / 1024, 'KB'),
  );
  const stub = vscodeStub();
  const runs = quick ? 3 : 15;
  const sdk = requireMs(`require(${JSON.stringify(require.resolve('@modelcontextprotocol/client'))})`, runs);
  const bundle = requireMs(`${stub};require(${JSON.stringify(process.cwd() + '/dist/extension.js')})`, runs);
  out.push(
    figure('footprint', 'require(dist/extension.js) p50', bundle, 'ms', { name: 'require SDK Client', value: sdk }),
  );
  // Issue 38's rows: what activation loads, beside the one-bundle build (bench/activation.ts).
  out.push(...(await activation(quick)));
  return out;
}
