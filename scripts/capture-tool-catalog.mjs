#!/usr/bin/env node
// Regenerates test/fixtures/tool-catalog/catalog.json: the real `tools/list` of real MCP servers
// from npm, the catalogue the tool search benchmark and tests rank against. The servers are
// installed (pinned, install scripts off) into .cache/tool-catalog rather than as devDependencies:
// they are only needed when the fixture is regenerated, not for a build or a test run.
//
//   node scripts/capture-tool-catalog.mjs            install if needed, capture, write the fixture
//
// Each server is started over stdio with dummy credentials and an empty HOME; listing tools needs
// no network for any of them (they connect to their services only when a tool is called). Left out:
// servers that reach their service before listing (supabase, redis) or need a native module built
// by an install script (azure-devops: keytar).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.cache', 'tool-catalog');
const out = join(root, 'test', 'fixtures', 'tool-catalog', 'catalog.json');
const home = mkdtempSync(join(tmpdir(), 'tool-catalog-home-'));

/** name, npm package@version, bin, args, env. */
const SERVERS = [
  ['everything', '@modelcontextprotocol/server-everything@2026.8.31', 'mcp-server-everything', ['stdio']],
  ['filesystem', '@modelcontextprotocol/server-filesystem@2026.8.31', 'mcp-server-filesystem', [home]],
  [
    'memory',
    '@modelcontextprotocol/server-memory@2026.8.31',
    'mcp-server-memory',
    [],
    { MEMORY_FILE_PATH: join(home, 'm.json') },
  ],
  ['thinking', '@modelcontextprotocol/server-sequential-thinking@2026.8.31', 'mcp-server-sequential-thinking', []],
  [
    'github',
    '@modelcontextprotocol/server-github@2025.4.8',
    'mcp-server-github',
    [],
    { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy' },
  ],
  [
    'gitlab',
    '@modelcontextprotocol/server-gitlab@2025.4.25',
    'mcp-server-gitlab',
    [],
    { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' },
  ],
  [
    'slack',
    '@modelcontextprotocol/server-slack@2025.4.25',
    'mcp-server-slack',
    [],
    { SLACK_BOT_TOKEN: 'dummy', SLACK_TEAM_ID: 'T0' },
  ],
  [
    'maps',
    '@modelcontextprotocol/server-google-maps@0.6.2',
    'mcp-server-google-maps',
    [],
    { GOOGLE_MAPS_API_KEY: 'dummy' },
  ],
  ['playwright', '@playwright/mcp@0.0.83', 'playwright-mcp', ['--caps=vision,pdf,testing,tracing']],
  ['devtools', 'chrome-devtools-mcp@1.11.0', 'chrome-devtools-mcp', []],
  ['commander', '@wonderwhy-er/desktop-commander@0.2.52', 'desktop-commander', []],
  ['notion', '@notionhq/notion-mcp-server@2.5.2', 'notion-mcp-server', [], { NOTION_TOKEN: 'dummy' }],
  ['kubernetes', 'mcp-server-kubernetes@4.1.7', 'mcp-server-kubernetes', []],
  ['sentry', '@sentry/mcp-server@0.39.0', 'sentry-mcp', ['--access-token=dummy']],
  ['firecrawl', 'firecrawl-mcp@3.26.0', 'firecrawl-mcp', [], { FIRECRAWL_API_KEY: 'fc-dummy' }],
  ['context7', '@upstash/context7-mcp@4.1.1', 'context7-mcp', []],
  ['puppeteer', '@modelcontextprotocol/server-puppeteer@2025.5.12', 'mcp-server-puppeteer', []],
  [
    'brave',
    '@modelcontextprotocol/server-brave-search@0.6.2',
    'mcp-server-brave-search',
    [],
    { BRAVE_API_KEY: 'dummy' },
  ],
  ['browser', '@executeautomation/playwright-mcp-server@1.0.12', 'playwright-mcp-server', []],
];

function install() {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  const missing = SERVERS.filter(([, , bin]) => !existsSync(join(dir, 'node_modules', '.bin', bin))).map((s) => s[1]);
  if (missing.length === 0) return;
  console.error(`installing ${missing.join(' ')}`);
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...missing], {
    cwd: dir,
    stdio: 'inherit',
  });
}

async function capture([name, pkg, bin, args, env = {}]) {
  const transport = new StdioClientTransport({
    command: join(dir, 'node_modules', '.bin', bin),
    args,
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'capture-tool-catalog', version: '1.0.0' });
  await client.connect(transport, { timeout: 60_000 });
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: 60_000 });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  await client.close();
  return {
    name,
    package: pkg,
    tools: tools.map((t) => ({
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      description: t.description ?? '',
      inputSchema: t.inputSchema,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  };
}

install();
const servers = [];
for (const s of SERVERS) {
  try {
    const got = await capture(s);
    console.error(`${s[0]}: ${got.tools.length} tools`);
    servers.push(got);
  } catch (err) {
    console.error(`${s[0]}: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
mkdirSync(dirname(out), { recursive: true });
const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
const text = `${JSON.stringify({ generatedBy: 'scripts/capture-tool-catalog.mjs', servers }, null, 1)}\n`;
if (text !== previous) writeFileSync(out, text);
console.error(`${servers.reduce((n, s) => n + s.tools.length, 0)} tools from ${servers.length} servers → ${out}`);
