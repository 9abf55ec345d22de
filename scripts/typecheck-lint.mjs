// `npm test`'s typecheck and lint in one process over one TypeScript program. Run apart, `tsc`
// and typescript-eslint's project service each build and check the same program (tsconfig.json
// holds every linted file): most of the lint's CPU was that second check. Here the program
// is built and checked once, tsc's diagnostics are reported from it, and ESLint, with the
// project's own config, gets that program for its type-aware rules (`parserOptions.programs`), so
// they read the types the check already computed.
//
// The answers are those of `npm run typecheck` (`tsc --noEmit -p .`: the same config file, root
// files and options, every pre-emit diagnostic) and `npm run lint` (the same config, rules and
// targets, read from package.json's lint script); only the program the rules ask is shared.
//
// `npm run test:static` runs it with a larger young generation (--max-semi-space-size=64): the
// checker makes many short-lived objects, and the default one spent about a fifth of the CPU in
// scavenges (31 s of CPU without it, 26 s with it, on this machine).
//
// --typecheck-only / --lint-only run one half (still on one program); --root=DIR checks another
// project laid out the same way (the script's own test).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { ESLint } from 'eslint';

// required, not imported: an import of this CommonJS package makes Node scan the 9 MB compiler for
// named exports first (≈0.45 s of CPU a run); typescript-eslint requires the same module instance.
const ts = createRequire(import.meta.url)('typescript');

const args = process.argv.slice(2);
const rootFlag = args.find((a) => a.startsWith('--root='));
const root = rootFlag ? resolve(rootFlag.slice('--root='.length)) : resolve(import.meta.dirname, '..');
const doTypecheck = !args.includes('--lint-only');
const doLint = !args.includes('--typecheck-only');

/** The targets of package.json's lint script (`eslint [--flags] target…`), so the two never differ. */
function lintTargets(script) {
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'eslint') throw new Error(`package.json's lint script is not a plain eslint call: ${script}`);
  const flags = words.slice(1).filter((w) => w.startsWith('-'));
  const known = new Set(['--no-error-on-unmatched-pattern']);
  const unknown = flags.filter((f) => !known.has(f));
  if (unknown.length) throw new Error(`lint flags this script does not apply: ${unknown.join(' ')}`);
  return { targets: words.slice(1).filter((w) => !w.startsWith('-')), errorOnUnmatchedPattern: flags.length === 0 };
}

function timed(label, t0) {
  return `${label} ${((performance.now() - t0) / 1000).toFixed(1)} s`;
}

const t0 = performance.now();
const configPath = join(root, 'tsconfig.json');
let unreadable;
const parsed = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => (unreadable = d) },
);
if (!parsed) {
  const why = unreadable ? ts.flattenDiagnosticMessageText(unreadable.messageText, '\n') : 'unknown error';
  throw new Error(`cannot read ${configPath}: ${why}`);
}
const host = ts.createCompilerHost(parsed.options);
// As tsc parses (TypeScript 5.3 on): JSDoc only where it can change a type error, in JavaScript
// files. No rule configured here reads JSDoc nodes; ESLint takes comments from the text.
host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  host,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: parsed.errors,
});
const times = [];
let failed = false;

if (doTypecheck) {
  const t = performance.now();
  // What `tsc --noEmit` reports: config, options, syntax, then (when the syntax is clean) global and semantic errors.
  let diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  ];
  if (diagnostics.length === 0) diagnostics = [...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()];
  const formatHost = {
    getCurrentDirectory: () => root,
    getCanonicalFileName: (f) => f,
    getNewLine: () => ts.sys.newLine,
  };
  if (diagnostics.length) {
    const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    process.stdout.write(`${format(diagnostics, formatHost)}\n`);
    const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
    console.log(`typecheck: ${errors} error${errors === 1 ? '' : 's'}`);
    if (errors) failed = true;
  }
  times.push(timed('typecheck', t));
}

if (doLint) {
  const t = performance.now();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { targets, errorOnUnmatchedPattern } = lintTargets(pkg.scripts.lint);
  const eslint = new ESLint({
    cwd: root,
    errorOnUnmatchedPattern,
    // Only where the config asks for type information (the TypeScript files) does the parser read these.
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false, programs: [program] } },
    },
  });
  const results = await eslint.lintFiles(targets);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text) process.stdout.write(text);
  if (results.some((r) => r.errorCount > 0 || r.fatalErrorCount > 0)) failed = true;
  times.push(timed('lint', t));
}

console.log(`${times.join(', ')} (${timed('in all', t0)}, one program of ${program.getRootFileNames().length} files)`);
process.exit(failed ? 1 : 0);
