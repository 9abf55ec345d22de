/** Realistic config files as other apps write them (test/fixtures/config), loaded together. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { byCode, fakeInputs, server } from './helpers.js';

const root = join(__dirname, '..', '..', 'fixtures', 'config');

test('a workspace, a home with Claude Desktop / Cursor / Windsurf configs and a managed file load together', async () => {
  const workspace = join(root, 'workspace');
  const inputs = fakeInputs({ github_token: 'ghp_fixture' });
  const c = await loadConfig({
    folders: [workspace],
    env: { DOCS_URL: 'https://docs.internal.example/sse' },
    inputs,
    managedPath: join(root, 'managed.json'),
    discovery: { enabled: true, homeDir: join(root, 'home'), platform: 'linux' },
  });
  const summary = c.servers
    .filter((s) => s.admission?.run !== false)
    .map((s) => `${s.source.scope}:${s.name}:${s.config.type}`);
  assert.deepEqual(summary, [
    'managed:corp-search:http',
    'discovered:filesystem:stdio',
    'discovered:context7:http',
    'workspace:github:http',
    'workspace:fetch:stdio',
    'project:everything:stdio',
    'project:docs:sse',
  ]);
  // Policy, shadowing and dedupe, each reported against the right file.
  assert.equal(byCode(c, 'policy-denied')[0].server, 'linear');
  assert.equal(byCode(c, 'shadowed')[0].file, join(root, 'home', '.cursor', 'mcp.json'));
  assert.equal(byCode(c, 'duplicate')[0].server, 'everything-copy');
  assert.equal(c.problems.filter((p) => p.severity === 'error' && p.code !== 'policy-denied').length, 0);

  const github = server(c, 'github').config;
  assert.ok(github.type === 'http');
  assert.deepEqual(github.headers, { Authorization: 'Bearer ghp_fixture' });
  assert.deepEqual(inputs.calls, [
    {
      id: 'github_token',
      file: join(workspace, '.vscode', 'mcp.json'),
      description: 'GitHub Personal Access Token',
      password: true,
    },
  ]);
  const fetch = server(c, 'fetch').config;
  assert.ok(fetch.type === 'stdio');
  assert.deepEqual(fetch.env, { USER_AGENT: 'mcp-host tests', FETCH_TIMEOUT: '30' });
  const docs = server(c, 'docs').config;
  assert.ok(docs.type === 'sse');
  assert.equal(docs.url, 'https://docs.internal.example/sse');
  const everything = server(c, 'everything').config;
  assert.ok(everything.type === 'stdio');
  assert.deepEqual(everything.env, { LOG_LEVEL: 'info' });
  assert.ok(c.files!.includes(join(workspace, '.env')));
});
