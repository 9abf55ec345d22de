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
  const source = readFileSync(file, 'utf8');
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
    // After start-up, so the functions it ran are in the cache too; unref'd, so it never keeps a
    // process alive, and a process that ends sooner leaves the cache to the next one.
    setTimeout(() => {
      try {
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, script.createCachedData());
        // Several processes may write at once: each rename is whole, and any one cache serves.
        renameSync(tmp, cacheFile);
      } catch {
        // A cache is only a saving.
      }
    }, 300).unref();
  }
  const mod = new Module(file, null);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  const fn = script.runInThisContext();
  fn.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
}

module.exports = { runCached };
