// What extension.js loads at activation and what waits for first use in sdk.js (scripts/lib/lazy-bundles.mjs).
//
// The activation set is every module main.ts reaches without passing through a module DEFERRED names
// (the SDK client and its protocol core, zod, Ajv, jose, …, and a few of our own modules that build
// schemas when they load or that only a connection attempt runs). Everything else extension.js held
// moves to sdk.js. An activation module's import of a deferred module becomes a stand-in that requires
// sdk.js the first time a name is read through it, so the SDK loads at the first connect (or the
// first config entry that needs zod's messages), not at `require` of extension.js. What activation
// code may not do is read a deferred module's name while it loads (`class X extends SdkError`): that
// loads sdk.js at activation, and test/integration/activation-bundle.test.ts fails on it.
import { existsSync, readFileSync } from 'node:fs';

export const DEFERRED_FILE = 'sdk.js';

/**
 * The modules (metafile input names) that are the edge of the activation set. Each is loaded on first
 * use with everything only it reaches; the packages the activation keeps (jsonc-parser: the config
 * files are read at activation) are left out of the first pattern.
 */
export const DEFERRED = [
  /^node_modules\/(?!jsonc-parser\/)/,
  /^(sdk-core|zod-locales|host-server-facade):/,
  // Our modules that build a zod schema or an Ajv when they load; activation code reaches them only
  // when it needs them (schema.ts checks a well-formed entry without zod: entry-check.ts).
  /^src\/core\/capabilities\/validate\.ts$/,
  /^src\/core\/config\/(entry-schema|inputs-schema|sandbox-settings-schema|sandbox-policy-schema)\.ts$/,
  /^src\/core\/registry\/schema\.ts$/,
  /^src\/core\/gateway\/profile-schema\.ts$/,
  /^src\/core\/inspector\/request-schemas\.ts$/,
  /^src\/core\/features\/(client-task-store|modern-tasks)\.ts$/,
  // The SDK client's subclass: `class HostClient extends Client` reads the SDK when it loads.
  /^src\/core\/connection\/host-client\.ts$/,
  /^src\/core\/auth\/auth-required\.ts$/,
  // What only a connection attempt runs: the transports and the OAuth provider and flows.
  /^src\/core\/connection\/(connect|launch-transport)\.ts$/,
  /^src\/core\/auth\/(provider|flow|client-credentials|enterprise\/auto)\.ts$/,
];
const isDeferred = (key) => DEFERRED.some((re) => re.test(key));

/**
 * Splits extension.js's inputs (its first build's metafile, entry `entry`) into the activation set
 * and the deferred one; `roots` are the deferred modules an activation module imports.
 */
export function splitActivation(metafile, entry) {
  const active = new Set();
  const roots = new Map();
  const stack = [entry];
  while (stack.length) {
    const key = stack.pop();
    if (active.has(key)) continue;
    active.add(key);
    for (const i of metafile.inputs[key]?.imports ?? []) {
      if (i.external) continue;
      if (isDeferred(i.path)) (roots.get(i.path) ?? roots.set(i.path, new Set()).get(i.path)).add(key);
      else stack.push(i.path);
    }
  }
  const deferred = new Set(Object.keys(metafile.inputs).filter((k) => !active.has(k)));
  return { active, deferred, roots };
}

/** A CommonJS root fails the build: its stand-in could not tell its `default` without running it. */
export function checkRoots(metafile, roots) {
  for (const [key, importers] of roots)
    if (metafile.inputs[key]?.format === 'cjs')
      throw new Error(
        `${key} is CommonJS and imported at activation by ${[...importers].join(', ')}: ` +
          'import it from a deferred module (scripts/lib/deferred-modules.mjs DEFERRED)',
      );
}

/**
 * `export * from` a deferred module would re-export nothing: the stand-in has no own names (copying
 * every name of zod and the SDK into each importer cost 25 ms of the 70 ms `require`). Says so, or
 * returns undefined for a plain import.
 */
export function deferredImportProblem(args, key) {
  if (!args.importer || !existsSync(args.importer)) return undefined;
  const text = readFileSync(args.importer, 'utf8');
  const quoted = args.path.replace(/[.*+?^$|()[\]{}\\/]/g, '\\$&');
  const star = new RegExp(`export\\s*\\*\\s*from\\s*['"]${quoted}['"]`);
  return star.test(text)
    ? `${args.importer}: export * from ${args.path} (${key}, loaded on first use) re-exports nothing; name the exports`
    : undefined;
}

/**
 * The stand-in of a deferred module in extension.js: an object with no names of its own whose
 * prototype loads sdk.js the first time a name is read through it. esbuild's interop (`__toESM`)
 * makes each importer's namespace an object with that same prototype and copies no names, so
 * nothing loads while the importers load; `__esModule` answers without loading.
 */
export const LAZY_HELPER = `module.exports = (key, load) => {
  let real;
  const get = () => {
    if (!real) {
      load();
      real = (globalThis[Symbol.for('mcp-host/modules')] ?? new Map()).get(key);
      if (!real) throw new Error(key + ' is not registered by ${DEFERRED_FILE}');
    }
    return real;
  };
  const names = new Proxy({}, {
    get: (_t, k) => (k === '__esModule' ? true : get()[k]),
    has: (_t, k) => k === '__esModule' || k in get(),
  });
  return Object.create(names);
};`;
