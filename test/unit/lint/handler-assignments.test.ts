/**
 * One owner of a server connection's handlers (ARCHITECTURE.md, "Invariants"): code outside the
 * launch that sets a client's or transport's `onclose`, `onerror`, `onmessage`, or replaces its
 * `close`, fails lint (eslint.config.mjs, HANDLER_ASSIGNMENT). Probes are linted through ESLint's
 * Node API under the project's own config, so the rule cannot pass by matching nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..', '..');

/** The messages of no-restricted-syntax for `code` linted as if it were the file at `rel` (never written). */
async function restricted(rel: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    // The probe is not in the TS program: type-aware parsing and the rules that need it are off for it.
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  });
  const [r] = await eslint.lintText(code, { filePath: join(root, rel) });
  return r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const PROBE = [
  'declare const client: { onclose?: () => void; onerror?: (e: Error) => void };',
  'declare const transport: { onmessage?: (m: unknown) => void; close(): Promise<void> };',
  'client.onclose = () => {};',
  'client.onerror = () => {};',
  'transport.onmessage = () => {};',
  'transport.close = async () => {};',
  'export {};',
].join('\n');

test('setting onclose, onerror, onmessage or close outside the launch fails lint, in core and in both front ends', async () => {
  for (const rel of [
    'src/core/connection/handler-probe.ts',
    'src/core/features/handler-probe.ts',
    'src/core/trace/handler-probe.ts',
    'src/extension/handler-probe.ts',
    'src/cli/handler-probe.ts',
  ]) {
    const found = await restricted(rel, PROBE);
    assert.equal(found.length, 4, `${rel}: ${JSON.stringify(found)}`);
    for (const m of found) assert.match(m, /Only src\/core\/connection\/launch\.ts sets/);
  }
});

test('the owners may: the launch, the wrapper transport, and the server side (gateway, IDE servers)', async () => {
  for (const rel of [
    'src/core/connection/launch.ts',
    'src/core/trace/transport.ts',
    'src/core/gateway/handler-probe.ts',
    'src/core/ide/handler-probe.ts',
  ])
    assert.deepEqual(await restricted(rel, PROBE), [], rel);
});

test('reading, calling and comparing handlers, and other properties, are not assignments of them', async () => {
  const code = [
    'declare const t: { onclose?: () => void; close(): Promise<void>; onMissingCacheHints?: () => void };',
    't.onclose?.();',
    'void t.close();',
    'export const same = t.onclose === undefined;',
    't.onMissingCacheHints = () => {};',
  ].join('\n');
  assert.deepEqual(await restricted('src/core/connection/handler-probe.ts', code), []);
});

test('the vscode rule still holds where handlers may be set', async () => {
  const found = await restricted('src/core/gateway/handler-probe.ts', "export const v = require('vscode');\n");
  assert.ok(
    found.some((m) => /must not import vscode/.test(m)),
    JSON.stringify(found),
  );
});
