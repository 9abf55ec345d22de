// Generates the config JSON schemas from the zod schema (src/core/config/schema-json.ts):
// media/*.schema.json and the inline entry schema of the `mcpHost.servers` setting in package.json
// (edited in place with jsonc-parser, so the rest of the file keeps its formatting), and every
// setting's `default` in package.json from src/core/setting-defaults.ts.
// `npm run build` runs it; `--check` only reports files that differ (exit 1).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const require = createRequire(import.meta.url);
const { applyEdits, modify } = require('jsonc-parser');
const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const gen = await tsImport('../src/core/config/schema-json.ts', import.meta.url);
const { SETTING_DEFAULTS } = await tsImport('../src/core/setting-defaults.ts', import.meta.url);

/** The file's generated text: every media file, and package.json with the setting's entry schema replaced. */
function outputs() {
  const out = Object.entries(gen.mediaSchemas()).map(([name, schema]) => [
    `${root}media/${name}`,
    gen.schemaText(schema),
  ]);
  const pkgFile = `${root}package.json`;
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
  const settings = ['contributes', 'configuration', 'properties'];
  let pkg = readFileSync(pkgFile, 'utf8');
  pkg = applyEdits(
    pkg,
    modify(pkg, [...settings, 'mcpHost.servers', 'additionalProperties'], gen.embeddedEntry(), { formattingOptions }),
  );
  const sandbox = {
    ...gen.sandboxJsonSchema(),
    scope: 'application',
    markdownDescription:
      'Sandbox rules for the servers in `mcpHost.servers` that set `"sandboxEnabled": true` (the top-level `sandbox` of VS Code\'s mcp.json; an entry\'s own `sandbox` adds to it).',
  };
  delete sandbox.description;
  pkg = applyEdits(pkg, modify(pkg, [...settings, 'mcpHost.sandbox'], sandbox, { formattingOptions }));
  for (const [key, value] of Object.entries(SETTING_DEFAULTS))
    pkg = applyEdits(pkg, modify(pkg, [...settings, `mcpHost.${key}`, 'default'], value, { formattingOptions }));
  out.push([pkgFile, pkg]);
  return out;
}

const stale = [];
for (const [file, text] of outputs()) {
  let now = '';
  try {
    now = readFileSync(file, 'utf8');
  } catch {
    // Missing: written below (or reported with --check).
  }
  if (now === text) continue;
  stale.push(file);
  if (!check) writeFileSync(file, text);
}
if (check && stale.length) {
  console.error(`out of date (run npm run build): ${stale.join(', ')}`);
  process.exit(1);
}
if (!check && stale.length) console.log(`gen-schema: wrote ${stale.length} file(s)`);
