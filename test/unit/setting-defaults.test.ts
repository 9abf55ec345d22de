/** Every `mcpHost.*` default is stated once (core/setting-defaults.ts) and package.json, the editor's reader and core agree. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSettings } from '../../src/core/connection/settings.js';
import { DEFAULT_REGISTRY_URL } from '../../src/core/registry/client.js';
import { SETTING_DEFAULTS } from '../../src/core/setting-defaults.js';
import { DEFAULT_TRACE_CAPACITY } from '../../src/core/trace/hub.js';
import { MemoryLogger } from '../support/logger.js';

const root = join(__dirname, '..', '..');
const properties = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  }
).contributes.configuration.properties;

test('package.json declares exactly the settings of the table, each with its default (npm run build writes them)', () => {
  assert.deepEqual(
    Object.keys(properties).sort(),
    Object.keys(SETTING_DEFAULTS)
      .map((k) => `mcpHost.${k}`)
      .sort(),
  );
  for (const [key, value] of Object.entries(SETTING_DEFAULTS))
    assert.deepEqual(properties[`mcpHost.${key}`]!.default, value, `mcpHost.${key}: run npm run build`);
});

test("core's defaults are the table's", () => {
  const s = readSettings({ logger: new MemoryLogger(), blobDir: '/tmp', env: {} });
  assert.equal(s.connectTimeoutMs, SETTING_DEFAULTS['timeouts.connect']);
  assert.equal(s.toolTimeoutMs, SETTING_DEFAULTS['timeouts.toolCall']);
  assert.equal(s.localConcurrency, SETTING_DEFAULTS['concurrency.local']);
  assert.equal(s.remoteConcurrency, SETTING_DEFAULTS['concurrency.remote']);
  assert.equal(DEFAULT_TRACE_CAPACITY, SETTING_DEFAULTS['trace.capacity']);
  assert.equal(DEFAULT_REGISTRY_URL, SETTING_DEFAULTS['registry.url']);
});

test("the editor's reader (vscode-bound, so read as text) falls back to the table, never to a literal", () => {
  const src = readFileSync(join(root, 'src', 'extension', 'settings.ts'), 'utf8');
  const fallbacks = [...src.matchAll(/\b(?:bool|atLeast)\(cfg, '([^']+)'(?:, [^,()]+)*, ([^()]+?)\)/g)];
  assert.ok(fallbacks.length >= 7, `found the readers with a fallback: ${fallbacks.length}`);
  for (const [, key, fallback] of fallbacks) assert.equal(fallback, `D['${key}']`, `mcpHost.${key}`);
  assert.match(src, /text\(cfg, 'logging\.level'\) \?\? D\['logging\.level'\]/);
});
