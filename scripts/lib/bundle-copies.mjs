// One copy of each package in dist/: reads the esbuild metafiles that `node esbuild.config.mjs
// --metafile=DIR` writes and names every package that an output, or a set of outputs loaded into
// one process, carries more than once. A package counts once per place it comes from: its own
// directory under node_modules, and every pre-bundled file of another package that inlined it (the
// SDK's client and server each ship their own Ajv inside `ajvProvider-<hash>.mjs`; their source
// maps name what they inlined).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_CORE_NAMESPACE, SDK_CORE_PACKAGE } from './sdk-core-once.mjs';
import { LAZY, REF_NAMESPACE, SHARED_FILE } from './lazy-bundles.mjs';

/**
 * Outputs that one process loads together (the feature bundles, the bridge and the sandbox runtime
 * are required on demand).
 */
export const LOADED_TOGETHER = [
  ['extension.js', ...Object.keys(LAZY), SHARED_FILE, 'ext-apps-bridge.js', 'sandbox-runtime.js'],
  ['cli.js', 'sandbox-runtime.js', 'redis-client.js'],
];

/** The modules an output holds code of; a stand-in for another bundle's module is a reference, not a copy. */
export function modulesOf(output) {
  return (
    Object.entries(output.inputs)
      // `<stdin>`: an output's generated entry, its own.
      .filter(
        ([input, { bytesInOutput }]) =>
          bytesInOutput > 0 && input !== '<stdin>' && !input.startsWith(`${REF_NAMESPACE}:`),
      )
      .map(([input]) => input)
  );
}

const SDK = '@modelcontextprotocol/';

/** The package an input path belongs to: the last `node_modules/<name>` in it. */
export function packageOf(input) {
  const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\/(.*)$/.exec(input);
  return m ? { name: m[2], dir: m[1], file: m[3] } : undefined;
}

/** `ajvProvider` for `dist/ajvProvider-BIwGVY6G.mjs`: a chunk of a pre-bundled SDK package. */
export function sdkChunkStem(file) {
  return /^dist\/(?:.*\/)?([A-Za-z]+)-[\w-]{8}\.[cm]?js$/.exec(file)?.[1];
}

/** Packages a pre-bundled file inlined, from its own source map (none when it has no map). */
export function inlinedPackages(root, input) {
  const mapFile = join(root, `${input}.map`);
  if (!existsSync(mapFile)) return [];
  const { sources } = JSON.parse(readFileSync(mapFile, 'utf8'));
  const names = new Set();
  for (const s of sources) {
    const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(s);
    // `../../core-internal/src/…`: a sibling package of the SDK's workspace, inlined at its build.
    const sibling = /^\.\.\/\.\.\/([\w-]+)\/src\//.exec(s);
    if (dep) names.add(dep[1]);
    else if (sibling) names.add(`${SDK}${sibling[1]}`);
  }
  return [...names];
}

function add(map, key, value) {
  const set = map.get(key) ?? new Set();
  set.add(value);
  map.set(key, set);
}

/**
 * For one output: package name → the places it comes from, and SDK chunk stem → the SDK packages
 * carrying it. Inputs esbuild dropped entirely (0 bytes) do not count.
 */
export function placesOf(root, output) {
  const packages = new Map();
  const stems = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    // The protocol core that esbuild.config.mjs compiles once for the SDK's client and server.
    if (input.startsWith(`${SDK_CORE_NAMESPACE}:`) && bytesInOutput > 0)
      add(packages, SDK_CORE_PACKAGE, `${SDK_CORE_NAMESPACE} (scripts/lib/sdk-core-once.mjs)`);
    const p = packageOf(input);
    if (!p || bytesInOutput === 0 || input.startsWith(`${REF_NAMESPACE}:`)) continue;
    add(packages, p.name, p.dir);
    if (!p.name.startsWith(SDK)) continue;
    const stem = sdkChunkStem(p.file);
    if (stem === undefined) continue;
    add(stems, stem, p.name);
    for (const name of inlinedPackages(root, input)) add(packages, name, `${input} (inlined)`);
  }
  return { packages, stems };
}

/** The one output file in a metafile of a single-entry build (its source map aside). */
function outputOf(metafile) {
  const [entry] = Object.entries(metafile.outputs).filter(([f]) => !f.endsWith('.map'));
  return entry[1];
}

/**
 * Every duplicate, as a sentence. `metafiles` maps an output's file name (`extension.js`) to its
 * metafile; `root` is where the metafiles' input paths start (the repository).
 */
export function findCopies(root, metafiles) {
  const problems = [];
  const places = new Map();
  for (const [file, metafile] of Object.entries(metafiles)) {
    const { packages, stems } = placesOf(root, outputOf(metafile));
    places.set(file, packages);
    for (const [name, from] of packages)
      if (from.size > 1) problems.push(`${file}: ${name} ${from.size} times, from ${[...from].join(', ')}`);
    for (const [stem, from] of stems)
      if (from.size > 1)
        problems.push(`${file}: the SDK chunk ${stem} ${from.size} times, from ${[...from].join(', ')}`);
  }
  for (const group of LOADED_TOGETHER) {
    const present = group.filter((f) => places.has(f));
    // A module in two outputs of one process: the split (scripts/lib/lazy-bundles.mjs) gives each one home.
    const homes = new Map();
    for (const file of present) for (const input of modulesOf(outputOf(metafiles[file]))) add(homes, input, file);
    for (const [input, files] of homes)
      if (files.size > 1) problems.push(`${input} in ${[...files].join(' and ')}, which one process loads together`);
    // By place: a package at another version, nested under a dependency that needs it (the
    // sandbox runtime's zod 3), is a different package to the bundles, not a second copy; a
    // package inlined by a pre-bundled file in one output and bundled from its own place in another is.
    const owners = new Map();
    for (const file of present)
      for (const [name, from] of places.get(file)) for (const place of from) add(owners, `${name}\0${place}`, file);
    const byName = new Map();
    for (const [key, files] of owners) {
      const [name, place] = key.split('\0');
      for (const f of files) add(byName, name, `${place}\0${f}`);
    }
    for (const [name, entries] of byName) {
      const list = [...entries].map((e) => e.split('\0'));
      const inlined = list.filter(([place]) => place.endsWith('(inlined)'));
      const clash = inlined.some(([, f]) => list.some(([p2, f2]) => f2 !== f && p2 !== inlined[0][0]));
      if (clash)
        problems.push(
          `${name} from ${list.map(([p, f]) => `${p} in ${f}`).join(', ')}, which one process loads together`,
        );
    }
  }
  return problems;
}

/** The metafiles `esbuild.config.mjs --metafile=DIR` wrote, by output file name. */
export function readMetafiles(dir, files) {
  return Object.fromEntries(files.map((f) => [f, JSON.parse(readFileSync(join(dir, `${f}.json`), 'utf8'))]));
}
