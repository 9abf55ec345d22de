// Import circles between the TypeScript files under a folder, type-only imports included (a type
// circle is still two files that cannot be understood apart). Imports are read with the compiler's
// own pre-processor, so comments and strings never count; only relative imports are followed.
//
//   node scripts/lib/import-cycles.mjs [src]   prints each circle, exits 1 if there is one
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Required, not imported: an import of the CommonJS compiler first scans all its 9 MB for named
// exports (about 0.4 s of CPU on this machine, twice what loading it takes).
const ts = createRequire(import.meta.url)('typescript');

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in source, `./x` may be `./x/index.ts`. */
function target(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m|c)?js$/, '');
  for (const c of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts')]) if (existsSync(c)) return c;
  return undefined;
}

/** Every file's relative imports (static, `export … from`, `import type`, `import()`). */
export function importGraph(root) {
  const graph = new Map();
  for (const file of walk(root)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = new Set();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const t = target(file, ref.fileName);
      if (t) deps.add(t);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The strongly connected components of `graph` (node → the nodes it points at), Tarjan's, visiting `order`. */
export function stronglyConnected(graph, order = [...graph.keys()]) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    out.push(scc);
  };
  for (const v of order) if (!index.has(v)) visit(v);
  return out;
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function importCycles(root) {
  const graph = importGraph(root);
  return stronglyConnected(graph)
    .filter((scc) => scc.length > 1 || graph.get(scc[0])?.has(scc[0]))
    .map((scc) => scc.map((f) => relative(root, f)).sort());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? 'src');
  const cycles = importCycles(root);
  for (const c of cycles) console.log(`circle of ${c.length}: ${c.join(' ')}`);
  console.log(`${cycles.length} import circle(s) under ${relative(process.cwd(), root) || '.'}`);
  process.exit(cycles.length ? 1 : 0);
}
