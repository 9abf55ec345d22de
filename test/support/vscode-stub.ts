/**
 * Code for `node -e` that makes `require('vscode')` return a stand-in: every top-level name the API
 * declares (bundles copy a namespace's own names), each a value whose every property, call and `new`
 * is another stand-in. Enough to load the extension's bundles without an editor.
 */
import { readFileSync } from 'node:fs';

export function vscodeStub(): string {
  const dts = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = [
    ...new Set([...dts.matchAll(/^\texport (?:namespace|enum|class|const|let|function) (\w+)/gm)].map((m) => m[1])),
  ];
  return `const mk=()=>new Proxy(function(){},{get:(t,k)=>k===Symbol.toPrimitive?()=>0:mk(),apply:()=>mk(),construct:()=>mk()});const api=Object.fromEntries(${JSON.stringify(names)}.map((n)=>[n,mk()]));const M=require('module');const o=M.prototype.require;M.prototype.require=function(id){return id==='vscode'?api:o.apply(this,arguments)};`;
}
