// Runs a CommonJS bundle as Node's loader would (module wrapper, require, __filename), compiled with
// V8's code cache kept beside it (`<bundle>.v8cache`): the first process to run a bundle writes the
// cache once its start-up code has run; later ones read it back instead of compiling the bundle.
// V8 rejects a cache made from another source, V8 version or set of flags (`cachedDataRejected`):
// that process compiles from source and writes a new one. See fixture-bundles.mjs.
'use strict';
const { readFileSync, writeFileSync, renameSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

function runCached(file) {
  // As Node's loader: a hashbang line is not JavaScript inside the module wrapper.
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: this process writes it.
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected) {
    // After start-up, so the functions it ran are in the cache too: shortly after, or at exit if
    // that comes first (a server whose input ends at once). Unref'd, so it never keeps a process
    // alive; a process killed sooner leaves the cache to the next one.
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      try {
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, script.createCachedData());
        // Several processes may write at once: each rename is whole, and any one cache serves.
        renameSync(tmp, cacheFile);
      } catch {
        // A cache is only a saving.
      }
    };
    setTimeout(write, 100).unref();
    process.once('exit', write);
  }
  const mod = new Module(file, null);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  // The bundle is the program: its `require.main === module` test holds, as when run directly.
  const req = Module.createRequire(file);
  req.main = mod;
  const fn = script.runInThisContext();
  fn.call(mod.exports, mod.exports, req, mod, file, dirname(file));
  mod.loaded = true;
}

/**
 * The text of a launcher that runs a bundle through {@link runCached}: `bundle` is its path from
 * the launcher's folder, so the folder can be moved whole. CommonJS, or an ES module (`esm`) for a
 * launcher that takes the name of an `.mjs` file.
 */
function launcherSource(bundle, esm = false) {
  const rel = JSON.stringify(bundle.split(/[\\/]/).join('/'));
  return esm
    ? `import { createRequire } from 'node:module';\nimport { fileURLToPath } from 'node:url';\n` +
        `createRequire(import.meta.url)(${JSON.stringify(__filename)}).runCached(fileURLToPath(new URL(${rel}, import.meta.url)));\n`
    : `'use strict';\nrequire(${JSON.stringify(__filename)}).runCached(require('node:path').join(__dirname, ${rel}));\n`;
}

module.exports = { runCached, launcherSource };
