/** Bundle and package sizes, and the time Node takes to load the bundle, against a bare require of the SDK client. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { figure, summarize, type Figure } from './lib/stats.js';

export function requireMs(expr: string, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `const t=process.hrtime.bigint();${expr};process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))`,
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0)
      throw new Error(
        `require failed: ${r.stderr
          .split('\n')
          .filter((l) => /Error|Cannot/.test(l))
          .slice(0, 3)
          .join(' / ')}`,
      );
    samples.push(Number(r.stdout));
  }
  return summarize(samples).p50;
}

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
  return out;
}

/**
 * Code that makes `require('vscode')` return a recursive stand-in: every top-level name the API
 * declares, each a value whose every property, call and `new` yields another stand-in. Enough for
 * module initialisation, so a bundle's load is timed without an editor.
 */
export function vscodeStub(): string {
  const dts = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = [
    ...new Set([...dts.matchAll(/^\texport (?:namespace|enum|class|const|let|function) (\w+)/gm)].map((m) => m[1])),
  ];
  return `const mk=()=>new Proxy(function(){}, {get:(t,k)=>k===Symbol.toPrimitive?()=>0:mk(),apply:()=>mk(),construct:()=>mk()});const api=Object.fromEntries(${JSON.stringify(names)}.map((n)=>[n,mk()]));const M=require('module');const o=M.prototype.require;M.prototype.require=function(id){return id==='vscode'?api:o.apply(this,arguments)}`;
}
