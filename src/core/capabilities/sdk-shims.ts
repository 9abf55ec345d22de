/**
 * Stands in for `@modelcontextprotocol/client/_shims` and `@modelcontextprotocol/server/_shims` in
 * our bundles (esbuild.config.mjs): the same names their Node builds export, with the host's JSON
 * Schema validator as the default, so neither package's inlined Ajv is bundled.
 */
export { HostJsonSchemaValidator as DefaultJsonSchemaValidator } from './sdk-validator.js';
export { default as process } from 'node:process';

/** In Node a failing `fetch` is a network error, never CORS (what the SDK's Node shim says too). */
export const CORS_IS_POSSIBLE = false;
