/**
 * The layer edges are enforced by lint, not by convention: a deliberate import across an edge is
 * linted through ESLint's Node API under the project's own config, and must fail.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = join(__dirname, '..', '..', '..');

/** Lints `code` as if it were the file at `rel` (it is never written); returns the rule ids that fired. */
async function lintAs(rel: string, code: string): Promise<{ rule: string | null; message: string }[]> {
  const eslint = new ESLint({
    cwd: root,
    // The probe is not in the TS program: type-aware parsing and the rules that need it are off for it.
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  });
  const [r] = await eslint.lintText(code, { filePath: join(root, rel) });
  return r.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

test('src/core importing src/extension fails lint', async () => {
  const found = await lintAs(
    'src/core/config/layer-probe.ts',
    "import { readSettings } from '../../extension/settings.js';\nexport const x = readSettings;\n",
  );
  const hit = found.find((m) => m.rule === 'no-restricted-imports');
  assert.ok(hit, JSON.stringify(found));
  assert.match(hit.message, /src\/core must not import src\/extension/);
});

test('src/core importing vscode or src/cli, and src/cli importing src/extension, fail lint', async () => {
  const vs = await lintAs('src/core/layer-probe.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n");
  assert.match(vs.find((m) => LAYER_RULES.has(m.rule ?? ''))?.message ?? '', /must not import vscode/);
  const cli = await lintAs(
    'src/core/layer-probe.ts',
    "import { main } from '../cli/main.js';\nexport const x = main;\n",
  );
  assert.match(cli.find((m) => LAYER_RULES.has(m.rule ?? ''))?.message ?? '', /src\/core must not import src\/cli/);
  const ext = await lintAs(
    'src/cli/layer-probe.ts',
    "import { activate } from '../extension/main.js';\nexport const x = activate;\n",
  );
  assert.match(
    ext.find((m) => LAYER_RULES.has(m.rule ?? ''))?.message ?? '',
    /src\/cli must not import src\/extension/,
  );
});

test('the same import from the editor layer is allowed (the probe itself is sound)', async () => {
  const ok = await lintAs(
    'src/extension/layer-probe.ts',
    "import { admit } from '../core/config/admit.js';\nexport const x = admit;\n",
  );
  assert.deepEqual(
    ok.filter((m) => LAYER_RULES.has(m.rule ?? '')),
    [],
  );
});

test('inside core: config importing gateway, and connection importing apps, fail lint; core rules still hold there', async () => {
  const gw = await lintAs(
    'src/core/config/layer-probe.ts',
    "import { Gateway } from '../gateway/gateway.js';\nexport const x = Gateway;\n",
  );
  assert.match(
    gw.find((m) => m.rule === 'no-restricted-imports')?.message ?? '',
    /src\/core\/config must not import src\/core\/gateway/,
  );
  const apps = await lintAs(
    'src/core/connection/layer-probe.ts',
    "import { toolUiOf } from '../apps/meta.js';\nexport const x = toolUiOf;\n",
  );
  assert.match(
    apps.find((m) => m.rule === 'no-restricted-imports')?.message ?? '',
    /src\/core\/connection must not import src\/core\/apps/,
  );
  const vs = await lintAs(
    'src/core/connection/layer-probe.ts',
    "import * as vscode from 'vscode';\nexport const x = vscode;\n",
  );
  assert.match(vs.find((m) => LAYER_RULES.has(m.rule ?? ''))?.message ?? '', /must not import vscode/);
  const ext = await lintAs(
    'src/core/config/layer-probe.ts',
    "import { readSettings } from '../../extension/settings.js';\nexport const x = readSettings;\n",
  );
  assert.match(
    ext.find((m) => LAYER_RULES.has(m.rule ?? ''))?.message ?? '',
    /src\/core must not import src\/extension/,
  );
});

test('a src file over 400 lines, or a function over 80, fails lint; blank and comment lines count', async () => {
  const long = `${'// a line\n'.repeat(400)}export const x = 1;\n`;
  const file = await lintAs('src/core/config/size-probe.ts', long);
  assert.ok(
    file.some((m) => m.rule === 'max-lines'),
    JSON.stringify(file),
  );
  const body = '  // a step\n'.repeat(80);
  const fn = await lintAs('src/core/config/size-probe.ts', `export function f(): number {\n${body}  return 1;\n}\n`);
  assert.ok(
    fn.some((m) => m.rule === 'max-lines-per-function'),
    JSON.stringify(fn),
  );
  const ok = await lintAs(
    'src/core/config/size-probe.ts',
    `export function f(): number {\n${'  // a step\n'.repeat(77)}  return 1;\n}\n`,
  );
  assert.deepEqual(
    ok.filter((m) => m.rule?.startsWith('max-lines')),
    [],
  );
});
