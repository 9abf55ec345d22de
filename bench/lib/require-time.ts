/** Timing `require` of a bundle in a fresh Node process, with `vscode` a stand-in (bench/footprint.ts, bench/activation.ts). */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { summarize } from './stats.js';

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
