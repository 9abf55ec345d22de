// The front page and the manual: README.md stays a front page (the .vsix's details page too), the
// manual in docs/ keeps every section that left it, its links and anchors resolve, and the two
// generated references (scripts/gen-docs.mjs) match what they are generated from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as args from '../../src/cli/args.js';

const ROOT = join(__dirname, '..', '..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);

// The headings of the 98 KB README before it became a front page (a880aa3): each is in docs/ now.
const MOVED_HEADINGS = [
  'Features',
  'Servers in the sidebar',
  'Finding, installing, removing and importing servers',
  'Configuration',
  'Managed policy (for administrators)',
  'headersHelper (credentials that change)',
  'Calling tools, reading resources, getting prompts',
  'Protocol versions',
  'MCP client features',
  'Building a server with MCP Host',
  'CLI',
  'MCP Apps: tools with their own interface',
  'OAuth',
  'Use your servers from any agent',
  'Large catalogues: tool search, profiles, bounded results, sign-in from the agent',
  'IDE server for coding agents',
  'Gemini CLI',
  'Sandbox for local servers',
  'Security',
  'Conformance',
  'Benchmarks',
  'Running it',
];

const headings = (text: string) => [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim());
/** GitHub's anchor of a heading. */
const slug = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

test('README.md is a front page of at most 15 KB, with the two commands and the agents’ npx lines', () => {
  const readme = read('README.md');
  assert.ok(Buffer.byteLength(readme) <= 15 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
  // .ci/run runs "the test command written in README.md".
  assert.match(readme, /^npm test\s/m);
  assert.match(readme, /^npm install && npm start\s/m);
  for (const agent of ['Claude Code', 'Gemini CLI', 'Codex']) assert.match(readme, new RegExp(`\\*\\*${agent}\\*\\*`));
  assert.match(readme, /npx -y mcp-host serve/);
  assert.match(readme, /!\[[^\]]+\]\(media\/screenshots\/[\w-]+\.png\)/, 'a screenshot');
});

test('every section that left README.md is a heading of a page in docs/', () => {
  const all = new Set(DOCS.flatMap((f) => headings(read(f))));
  assert.deepEqual(
    MOVED_HEADINGS.filter((h) => !all.has(h)),
    [],
  );
});

test('the relative links of README.md, CONTRIBUTING.md, ARCHITECTURE.md and docs/ reach a file and its anchor', () => {
  const broken: string[] = [];
  for (const file of ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'CHANGELOG.md', ...DOCS]) {
    const text = read(file).replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const to = path ? resolve(ROOT, dirname(file), path) : join(ROOT, file);
      if (!existsSync(to)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor && to.endsWith('.md') && !headings(readFileSync(to, 'utf8')).map(slug).includes(anchor))
        broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('docs/settings.md and docs/cli-options.md are what npm run docs:gen writes from package.json and src/cli/args.ts', async () => {
  const gen = (await import(join(ROOT, 'scripts', 'gen-docs.mjs'))) as {
    renderSettings: (pkg: unknown) => string;
    renderCliOptions: (a: typeof args) => string;
  };
  const hint = 'run `npm run docs:gen` and commit the result';
  assert.equal(
    read('docs/settings.md'),
    gen.renderSettings(JSON.parse(read('package.json'))),
    `docs/settings.md drifted: ${hint}`,
  );
  assert.equal(read('docs/cli-options.md'), gen.renderCliOptions(args), `docs/cli-options.md drifted: ${hint}`);
});
