// The layers of src/core and its public face, checked on the import graph (import-cycles.mjs
// reads it: type-only imports and re-exports count, comments and strings do not):
//
// - folder circles: src/core's units (each subfolder, and each file directly in src/core) import
//   each other without a circle, even where no two files do (config/a → sandbox/b → config/c is a
//   circle of folders, not of files);
// - layers: every unit sits in one layer of LAYERS, and imports only units of lower layers (the
//   base files also each other), so a rule holds for chains of imports, not only for direct ones;
// - reach: the rules of REACH ("connection never depends on apps"), checked over every chain of
//   imports, each broken one shown with the chain that breaks it;
// - face: src/extension and src/cli import a subsystem of core only through its `index.ts`
//   (core's top-level files are modules of their own and public too).
//
//   node scripts/lib/import-layers.mjs [src]   prints each finding, exits 1 if there is one
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importGraph, stronglyConnected } from './import-cycles.mjs';

/**
 * Lowest first. `*.ts` stands for every file directly in src/core not named elsewhere: the base
 * (errors, ports, events, redact, host-data with the plain data types, ...), which imports no
 * subsystem. A new folder goes into the lowest layer its imports allow.
 */
export const LAYERS = [
  ['*.ts'],
  ['tools/', 'registry/', 'capabilities/'],
  ['config/'],
  ['auth/', 'sandbox/', 'features/', 'dev/', 'trace/', 'apps/'],
  // OpenTelemetry's MCP spans and metrics: a tap on the trace's one wrapper transport.
  ['telemetry/'],
  // The contract the front ends see; it must not depend on its implementation (REACH).
  ['host-api.ts'],
  ['connection/', 'calls/'],
  ['host.ts', 'ide/', 'inspector/'],
  ['gateway/'],
  // Several team gateway processes as one, over Redis: the gateway's shared state, behind its interfaces.
  ['cluster/'],
];

/** Units that must not depend on another, directly or through any chain of imports. */
export const REACH = [
  { from: 'config/', to: 'gateway/', why: 'admission and loading come before any gateway' },
  { from: 'connection/', to: 'apps/', why: 'shared wire names live in app-ids.ts and app-meta.ts' },
  { from: 'host-api.ts', to: 'connection/', why: 'the contract does not depend on its implementation' },
  { from: 'host-data.ts', to: 'config/', why: 'the plain data imports nothing above the base files' },
];

/**
 * Front-end files that import inside a subsystem, each with its reason: a subsystem that loads on
 * first use from a bundle of its own (the gateway) is reached through one light module at activation.
 */
export const FACE_EXCEPTIONS = {
  // GatewayBridge is made at activation; the gateway's face would pull the gateway bundle in with it.
  'src/extension/main.ts': 'gateway/bridge',
  // The gateway's face would pull the gateway into the activation bundle (it loads on first use:
  // scripts/lib/lazy-bundles.mjs); its view settings are read at activation.
  'src/extension/settings.ts': 'gateway/view-settings',
};

const FRONT_ENDS = ['extension', 'cli'];

/** The unit of a file under core: `config/` for anything in that folder, `host.ts` for a top-level file. */
function unitOf(coreRoot, file) {
  const parts = relative(coreRoot, file).split(sep);
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

function layerOf(layers, unit) {
  const i = layers.findIndex((l) => l.includes(unit));
  if (i !== -1) return i;
  return unit.endsWith('.ts') ? layers.findIndex((l) => l.includes('*.ts')) : -1;
}

/** Units, their imports of each other and one file edge behind each (to show). */
function unitGraph(graph, coreRoot) {
  const units = new Map();
  const evidence = new Map();
  for (const [file, deps] of graph) {
    if (!file.startsWith(coreRoot + sep)) continue;
    const u = unitOf(coreRoot, file);
    if (!units.has(u)) units.set(u, new Set());
    for (const d of deps) {
      if (!d.startsWith(coreRoot + sep)) continue;
      const v = unitOf(coreRoot, d);
      if (v === u) continue;
      units.get(u).add(v);
      const key = `${u} ${v}`;
      if (!evidence.has(key)) evidence.set(key, `${relative(coreRoot, file)} → ${relative(coreRoot, d)}`);
    }
  }
  return { units, evidence };
}

/** Strongly connected components of more than one unit. */
function circles(units) {
  return stronglyConnected(units, [...units.keys()].sort())
    .filter((scc) => scc.length > 1)
    .map((scc) => scc.sort());
}

/** The shortest chain of units from `from` to `to`, or undefined (breadth first). */
function chain(units, from, to) {
  const prev = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const u = queue.shift();
    if (u === to) {
      const path = [];
      for (let x = to; x !== undefined; x = prev.get(x)) path.unshift(x);
      return path;
    }
    for (const v of units.get(u) ?? [])
      if (!prev.has(v)) {
        prev.set(v, u);
        queue.push(v);
      }
  }
  return undefined;
}

/**
 * Every finding under `srcRoot` (a folder with core/, extension/, cli/), as lines to print; none
 * means the layers hold. `options` replaces LAYERS, REACH or FACE_EXCEPTIONS (the check's own test).
 */
export function checkLayers(srcRoot, options = {}) {
  const { layers = LAYERS, reach = REACH, faceExceptions = FACE_EXCEPTIONS } = options;
  const root = resolve(srcRoot);
  const coreRoot = join(root, 'core');
  const graph = importGraph(root);
  const { units, evidence } = unitGraph(graph, coreRoot);
  const out = [];
  const via = (u, v) => evidence.get(`${u} ${v}`);

  for (const c of circles(units)) {
    const edges = c.flatMap((u) => c.filter((v) => via(u, v)).map((v) => `${u} → ${v} (${via(u, v)})`));
    out.push(`folder circle in core: ${c.join(' ')}: ${edges.join('; ')}`);
  }
  const base = layers.findIndex((l) => l.includes('*.ts'));
  for (const [u, deps] of [...units].sort(([a], [b]) => a.localeCompare(b))) {
    const lu = layerOf(layers, u);
    if (lu === -1) {
      out.push(`core/${u} is in no layer: add it to LAYERS (scripts/lib/import-layers.mjs)`);
      continue;
    }
    for (const v of [...deps].sort()) {
      const lv = layerOf(layers, v);
      if (lv === -1 || lv < lu || (lu === base && lv === base)) continue;
      out.push(`layer: core/${u} (layer ${lu}) imports core/${v} (layer ${lv}): ${via(u, v)}`);
    }
  }
  for (const r of reach) {
    if (!units.has(r.from)) continue;
    const c = chain(units, r.from, r.to);
    if (!c) continue;
    const steps = c.slice(1).map((v, i) => via(c[i], v));
    out.push(`reach: core/${r.from} must not depend on core/${r.to} (${r.why}): ${steps.join(', ')}`);
  }
  for (const [file, deps] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const rel = relative(root, file).split(sep).join('/');
    if (!FRONT_ENDS.some((f) => rel.startsWith(`${f}/`))) continue;
    if (Object.hasOwn(faceExceptions, `src/${rel}`) || Object.hasOwn(faceExceptions, rel)) continue;
    for (const d of [...deps].sort()) {
      if (!d.startsWith(coreRoot + sep)) continue;
      const parts = relative(coreRoot, d).split(sep);
      if (parts.length === 1 || (parts.length === 2 && parts[1] === 'index.ts')) continue;
      out.push(
        `face: ${rel} imports core/${parts.join('/')}: import core/${parts[0]}/index.ts (export the name there)`,
      );
    }
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(process.argv[2] ?? 'src');
  if (!existsSync(join(root, 'core'))) throw new Error(`no core/ under ${root}`);
  const found = checkLayers(root);
  for (const f of found) console.log(f);
  console.log(`${found.length} layer finding(s) under ${relative(process.cwd(), root) || '.'}`);
  process.exit(found.length ? 1 : 0);
}
