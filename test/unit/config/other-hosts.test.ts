/**
 * The agent CLIs' own files (Copilot CLI's JSON, Gemini CLI's JSONC settings, Codex's TOML), read
 * by discovery and Import Servers… from real files in a temp home (and Copilot CLI's project file,
 * `.github/mcp.json`, with the folder's own): each app's spelling becomes our
 * entry, a broken file is a problem naming it while the others still load, and dedupe works across
 * them as for every scope.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { configFilesToWatch, loadConfig } from '../../../src/core/config/load.js';
import { admit, heldReason } from '../../../src/core/config/admit.js';
import { ServerApprovals } from '../../../src/core/config/approvals.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { readImportSource } from '../../../src/core/config/import.js';
import { discoveryFile } from '../../../src/core/config/sources/discovery.js';
import { byCode, json, names, server, tempTree } from './helpers.js';

const CODEX_TOML = `
model = "o4"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp@1.2.0"]
env = { DOCS_LANG = "en" }

[mcp_servers.remote]
url = "https://remote.test/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Key" = "REMOTE_KEY" }
startup_timeout_sec = 20

[mcp_servers.off]
command = "node"
args = ["off.js"]
enabled = false
`;

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, update: async (k, v) => void m.set(k, v) };
}

async function discover(home: string, sources: ('copilot-cli' | 'gemini-cli' | 'codex')[]) {
  return loadConfig({
    folders: [],
    env: { REMOTE_TOKEN: 'tok', REMOTE_KEY: 'key' },
    discovery: { enabled: true, homeDir: home, platform: 'linux', sources },
  });
}

test('discovery paths of the agent CLIs; CODEX_HOME moves Codex', () => {
  const o = { homeDir: '/home/u', platform: 'linux' as const, env: {} };
  assert.equal(discoveryFile('copilot-cli', o), '/home/u/.copilot/mcp-config.json');
  assert.equal(discoveryFile('gemini-cli', o), '/home/u/.gemini/settings.json');
  assert.equal(discoveryFile('codex', o), '/home/u/.codex/config.toml');
  assert.equal(discoveryFile('codex', { ...o, env: { CODEX_HOME: '/opt/codex' } }), '/opt/codex/config.toml');
});

test("Copilot CLI's mcp-config.json: local is stdio, http stays http, its tools allow-list is dropped", async (t) => {
  const home = await tempTree(t, {
    '.copilot/mcp-config.json': json({
      mcpServers: {
        gh: { type: 'local', command: 'node', args: ['gh.js'], tools: ['*'], env: { A: '1' } },
        web: { type: 'http', url: 'https://web.test/mcp', headers: { 'X-A': 'b' }, tools: ['search'] },
      },
    }),
  });
  const c = await discover(home, ['copilot-cli']);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(names(c).sort(), ['gh', 'web']);
  const gh = server(c, 'gh');
  assert.equal(gh.source.scope, 'discovered');
  assert.equal(gh.source.file, join(home, '.copilot', 'mcp-config.json'));
  assert.ok(gh.config.type === 'stdio');
  assert.deepEqual([gh.config.command, gh.config.args], ['node', ['gh.js']]);
  const web = server(c, 'web').config;
  assert.ok(web.type === 'http');
  assert.equal(web.url, 'https://web.test/mcp');
});

test("Gemini CLI's settings.json (with comments): httpUrl is Streamable HTTP, url is SSE, its own keys dropped", async (t) => {
  const home = await tempTree(t, {
    '.gemini/settings.json': `{
      // Gemini CLI allows comments here
      "theme": "dark",
      "mcpServers": {
        "local": { "command": "python3", "args": ["-m", "srv"], "cwd": "/tmp", "trust": true, "timeout": 5000 },
        "stream": { "httpUrl": "https://stream.test/mcp", "headers": { "X-A": "b" }, "includeTools": ["a"] },
        "events": { "url": "https://events.test/sse", "description": "old style" }
      }
    }`,
  });
  const c = await discover(home, ['gemini-cli']);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(names(c).sort(), ['events', 'local', 'stream']);
  const local = server(c, 'local').config;
  assert.ok(local.type === 'stdio');
  assert.deepEqual(local.args, ['-m', 'srv']);
  const stream = server(c, 'stream').config;
  assert.ok(stream.type === 'http');
  assert.equal(stream.url, 'https://stream.test/mcp');
  const events = server(c, 'events').config;
  assert.ok(events.type === 'sse');
  assert.equal(events.url, 'https://events.test/sse');
});

test("Codex's config.toml: [mcp_servers.*] tables, bearer and env headers as variables, enabled = false is disabled", async (t) => {
  const home = await tempTree(t, { '.codex/config.toml': CODEX_TOML });
  const c = await discover(home, ['codex']);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(names(c).sort(), ['docs', 'off', 'remote']);
  const docs = server(c, 'docs');
  assert.deepEqual(docs.source.jsonPath, ['mcp_servers', 'docs']);
  assert.ok(docs.config.type === 'stdio');
  assert.deepEqual(docs.config.args, ['-y', 'docs-mcp@1.2.0']);
  const remote = server(c, 'remote').config;
  assert.ok(remote.type === 'http');
  assert.equal(remote.url, 'https://remote.test/mcp');
  // Resolved from the environment the way every other scope's ${env:…} is.
  assert.deepEqual(remote.headers, { 'X-Team': 'core', 'X-Key': 'key', Authorization: 'Bearer tok' });
  assert.equal(server(c, 'off').config.disabled, true);
  // Import copies the mapped entry, with the variable references (never the resolved secret).
  const imp = await readImportSource('codex', [], { homeDir: home, platform: 'linux', env: {} });
  const r = imp.candidates.find((x) => x.name === 'remote');
  assert.equal(r?.invalid, undefined);
  assert.deepEqual(r?.entry.headers, {
    'X-Team': 'core',
    'X-Key': '${env:REMOTE_KEY}',
    Authorization: 'Bearer ${env:REMOTE_TOKEN}',
  });
});

test('a broken TOML or JSON file of an agent CLI names the file and line; the other apps still load', async (t) => {
  const home = await tempTree(t, {
    '.codex/config.toml': '[mcp_servers.bad\ncommand = "x"\n',
    '.copilot/mcp-config.json': '{ "mcpServers": { ',
    '.gemini/settings.json': json({ mcpServers: { fine: { command: 'node', args: ['ok.js'] } } }),
  });
  const c = await discover(home, ['copilot-cli', 'gemini-cli', 'codex']);
  assert.deepEqual(names(c), ['fine']);
  const toml = byCode(c, 'invalid-toml');
  assert.equal(toml.length, 1);
  assert.equal(toml[0].file, join(home, '.codex', 'config.toml'));
  assert.equal(toml[0].line, 1);
  assert.equal(byCode(c, 'invalid-json')[0].file, join(home, '.copilot', 'mcp-config.json'));
});

test('the same server in Codex and Copilot CLI is one server (dedupe by what runs)', async (t) => {
  const home = await tempTree(t, {
    '.codex/config.toml': '[mcp_servers.a]\ncommand = "node"\nargs = ["same.js"]\n',
    '.copilot/mcp-config.json': json({ mcpServers: { b: { type: 'local', command: 'node', args: ['same.js'] } } }),
  });
  const c = await discover(home, ['copilot-cli', 'codex']);
  assert.equal(c.servers.length, 1, names(c).join(', '));
});

test("Copilot CLI's .github/mcp.json is a project file: mapped like its user file, held for approval, .mcp.json wins a name", async (t) => {
  const folder = await tempTree(t, {
    '.github/mcp.json': json({
      mcpServers: {
        lint: { type: 'local', command: 'node', args: ['lint.js'], tools: ['*'] },
        both: { type: 'local', command: 'node', args: ['github.js'] },
      },
    }),
    '.mcp.json': json({ mcpServers: { both: { command: 'node', args: ['root.js'] } } }),
  });
  const file = join(folder, '.github', 'mcp.json');
  const o = { folders: [folder], env: {}, homeDir: join(folder, 'no-home') };
  assert.ok(configFilesToWatch(o).includes(file));
  const c = await loadConfig(o);
  assert.deepEqual(names(c).sort(), ['both', 'lint']);
  const lint = server(c, 'lint');
  assert.equal(lint.source.scope, 'project');
  assert.equal(lint.source.file, file);
  assert.ok(lint.config.type === 'stdio');
  assert.deepEqual([lint.config.command, lint.config.args], ['node', ['lint.js']]);
  const both = server(c, 'both');
  assert.equal(both.source.file, join(folder, '.mcp.json'));
  assert.deepEqual(
    byCode(c, 'shadowed').map((p) => [p.server, p.file]),
    [['both', file]],
  );
  // Like every file that comes with the folder, its servers wait for the user's approval.
  const approvals = new ServerApprovals(memory());
  const [held] = admit([lint], { trusted: true, approvals });
  assert.equal(heldReason(held!), 'not-approved');
  await approvals.approve([lint]);
  assert.deepEqual(admit([lint], { trusted: true, approvals })[0]!.admission, { run: true });
});

test('a broken .github/mcp.json names the file; the folder’s .mcp.json still loads', async (t) => {
  const folder = await tempTree(t, {
    '.github/mcp.json': '{ "mcpServers": { ',
    '.mcp.json': json({ mcpServers: { fine: { command: 'node', args: ['ok.js'] } } }),
  });
  const c = await loadConfig({ folders: [folder], env: {}, homeDir: join(folder, 'no-home') });
  assert.deepEqual(names(c), ['fine']);
  assert.equal(byCode(c, 'invalid-json')[0]?.file, join(folder, '.github', 'mcp.json'));
});
