/**
 * The one version of MCP Host, from package.json: the bundles get it from esbuild's `define`
 * (esbuild.config.mjs, and every test or bench build through `versionDefine`), and code run from
 * source under tsx reads package.json, so both report the same number.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

declare const __MCP_HOST_VERSION__: string | undefined;

function fromPackageJson(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const VERSION: string = typeof __MCP_HOST_VERSION__ === 'string' ? __MCP_HOST_VERSION__ : fromPackageJson();
