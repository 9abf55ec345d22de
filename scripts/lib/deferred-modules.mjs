// What extension.js loads at activation and what waits for first use in sdk.js (scripts/lib/lazy-bundles.mjs).
//
// The activation set is every module main.ts reaches without passing through a module DEFERRED names
// (the SDK client and its protocol core, zod, Ajv, jose, …, and a few of our own modules that build
// schemas when they load). Everything else extension.js held moves to sdk.js. An activation module's
// import of a deferred module becomes a stand-in whose names are getters: the first one read requires
// sdk.js, so the SDK loads at the first connect (or the first config entry that needs zod's messages),
// not at `require` of extension.js. What activation code may not do is read a deferred module's name
// while it loads (`class X extends SdkError` at the top of a file): that loads sdk.js at activation,
// and `build.test.ts` fails on it.
import * as esbuild from 'esbuild';

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

/**
 * The export names of each root, from an ESM build of them (the stand-ins list them before the module
 * loads). A CommonJS root fails: its names are known only once it runs.
 */
export async function exportNames(base, roots, resolveRef) {
  const keys = [...roots.keys()];
  const r = await esbuild.build({
    ...base,
    entryPoints: keys.map((k, i) => ({ in: `\0ref:${k}`, out: `root-${i}` })),
    stdin: undefined,
    outfile: undefined,
    outdir: '/deferred-names',
    format: 'esm',
    splitting: true,
    sourcemap: false,
    minify: false,
    write: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [resolveRef, ...base.plugins],
  });
  const names = new Map();
  for (const [file, out] of Object.entries(r.metafile.outputs)) {
    const m = /root-(\d+)\.js$/.exec(file);
    if (!m) continue;
    const key = keys[Number(m[1])];
    if (r.metafile.inputs[key]?.format === 'cjs')
      throw new Error(
        `${key} is CommonJS and imported at activation by ${[...roots.get(key)].join(', ')}: ` +
          'import it from a deferred module (scripts/lib/deferred-modules.mjs DEFERRED)',
      );
    names.set(key, out.exports.filter((n) => n !== '__esModule').sort());
  }
  return names;
}

/**
 * The stand-in of a deferred module in extension.js: an object whose every name is a getter that
 * requires sdk.js the first time one is read. `__esModule` answers without loading, so esbuild's
 * interop copies the getters and reads nothing.
 */
export const LAZY_HELPER = `module.exports = (key, names, load) => {
  let real;
  const get = () => {
    if (!real) {
      load();
      real = (globalThis[Symbol.for('mcp-host/modules')] ?? new Map()).get(key);
      if (!real) throw new Error(key + ' is not registered by ${DEFERRED_FILE}');
      // The names were read from the same sources at build time; a difference is a build bug, said at once.
      const missing = names.filter((n) => !(n in real));
      if (missing.length) throw new Error(key + ' in ${DEFERRED_FILE} lacks ' + missing.join(', '));
    }
    return real;
  };
  const own = new Set(names);
  return new Proxy({}, {
    get: (_t, k) => (k === '__esModule' ? true : typeof k === 'string' && own.has(k) ? get()[k] : undefined),
    has: (_t, k) => k === '__esModule' || own.has(k),
    ownKeys: () => names,
    getOwnPropertyDescriptor: (_t, k) =>
      own.has(k) ? { configurable: true, enumerable: true, get: () => get()[k] } : undefined,
  });
};`;
