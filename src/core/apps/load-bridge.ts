/**
 * Loads the official MCP Apps host bridge. In the shipped extension it is its own file
 * (dist/ext-apps-bridge.js, required on first use) built without the SDK: its imports of
 * `@modelcontextprotocol/client`, `@modelcontextprotocol/core` and `zod/v4` read the copies this
 * bundle already holds, registered here under a global symbol just before the bridge loads
 * (esbuild.config.mjs, `appBridgeSharesSdk`). Unbundled (tests), the registration is unused.
 */
import * as client from '@modelcontextprotocol/client';
import * as core from '@modelcontextprotocol/core';
import * as zod from 'zod/v4';
import type * as AppBridgeModule from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };

export const BRIDGE_MODULES = Symbol.for('mcp-host/app-bridge-modules');

/** What the bridge file imports, by specifier; tests that load dist/ext-apps-bridge.js alone call it too. */
export function shareSdkWithBridge(): void {
  (globalThis as Record<symbol, unknown>)[BRIDGE_MODULES] ??= {
    '@modelcontextprotocol/client': client,
    '@modelcontextprotocol/core': core,
    'zod/v4': zod,
  };
}

// ESM-only package, loaded with `import()` from this CommonJS code.
export async function loadAppBridge(): Promise<typeof AppBridgeModule> {
  shareSdkWithBridge();
  return import('@modelcontextprotocol/ext-apps/app-bridge');
}
