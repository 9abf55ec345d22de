/**
 * `npm test`'s typecheck and lint share one TypeScript program (scripts/typecheck-lint.mjs): a
 * type error and a type-aware lint finding each still fail the run, with tsc's and ESLint's own
 * messages, in a project laid out as this one is (tsconfig.json, package.json's lint script,
 * eslint.config.mjs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const script = join(root, 'scripts', 'typecheck-lint.mjs');

function project(files: Record<string, string>): string {
  // Inside the repository, so the config finds typescript-eslint in its node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', 'typecheck-lint-'));
  mkdirSync(join(dir, 'src'));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, 'src', name), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', lib: ['ES2022'], types: [] },
      include: ['src'],
    }),
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { lint: 'eslint src' } }));
  writeFileSync(
    join(dir, 'eslint.config.mjs'),
    [
      "import tseslint from 'typescript-eslint';",
      'export default tseslint.config({',
      "  files: ['**/*.ts'],",
      '  languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },',
      "  plugins: { '@typescript-eslint': tseslint.plugin },",
      "  rules: { '@typescript-eslint/no-floating-promises': 'error' },",
      '});',
      '',
    ].join('\n'),
  );
  return dir;
}

function check(dir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [script, `--root=${dir}`], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

// One run (each loads TypeScript and ESLint, ≈2 s of CPU): the clean file beside the broken one
// shows that correct code draws no finding; `npm test`'s own typecheck+lint phase runs the script
// over this repository and must exit 0.
test(
  'a type error and a floating promise both fail the shared check; clean code beside them has no finding',
  { timeout: 120_000 },
  () => {
    const dir = project({
      'broken.ts': 'export const n: number = "one";\nasync function f(): Promise<void> {}\nf();\n',
      'clean.ts': 'async function g(): Promise<void> {}\nvoid g();\nexport const m: number = 1;\n',
    });
    try {
      const b = check(dir);
      assert.equal(b.status, 1, b.out);
      assert.match(b.out, /src\/broken\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
      // Linted although the typecheck failed: both halves report in one run.
      assert.match(b.out, /3:1\s+error\s+Promises must be awaited.*@typescript-eslint\/no-floating-promises/);
      assert.match(b.out, /typecheck: 1 error\n/);
      assert.match(b.out, /1 problem \(1 error, 0 warnings\)/);
      assert.doesNotMatch(b.out, /clean\.ts/);
      assert.match(b.out, /typecheck .* lint .*one program of 2 files/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
