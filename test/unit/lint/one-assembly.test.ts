/**
 * One assembly for both front ends (ARCHITECTURE.md, "Invariants"): src/extension and src/cli
 * get the host and its registry from src/core/host-assembly.ts, never make them themselves, and
 * put no Proxy in front of the host (eslint.config.mjs, ONE_ASSEMBLY); a CLI command sets no field
 * of its Session (SESSION_HOOKS). Probes are linted through
 * ESLint's Node API under the project's own config, so the rule cannot pass by matching nothing.
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
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const PROBES = [
  'declare function createHost(o: unknown): object;',
  'declare class ServerRegistry { constructor(o: unknown); }',
  'declare const host: object;',
  'export const a = createHost({});',
  'export const b = new ServerRegistry({});',
  'export const c = new Proxy(host, {});',
].join('\n');

test('a front end that makes its own host or registry, or a Proxy, fails lint', async () => {
  for (const rel of ['src/extension/probe.ts', 'src/cli/probe.ts']) {
    const found = (await restricted(rel, PROBES)).filter((m) => m.includes('host-assembly.ts'));
    assert.equal(found.length, 3, `${rel}: ${JSON.stringify(found)}`);
  }
});

test('core itself may make them (the assembly does)', async () => {
  const found = (await restricted('src/core/probe.ts', PROBES)).filter((m) => m.includes('host-assembly.ts'));
  assert.deepEqual(found, []);
});

test('a CLI command that sets a field of its session fails lint (ServingPorts are fixed before it opens)', async () => {
  const probe = 'declare const session: { telemetry: unknown };\nsession.telemetry = {};\nexport {};';
  const found = (await restricted('src/cli/commands/probe.ts', probe)).filter((m) => m.includes('ServingPorts'));
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.deepEqual(
    (await restricted('src/extension/probe.ts', probe)).filter((m) => m.includes('ServingPorts')),
    [],
    'the rule is the CLI\'s: the editor has no Session',
  );
});
