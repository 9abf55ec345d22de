/** Precedence, shadowing, dedupe by content, signatures and hashes. */
import { heldReason } from '../../../src/core/config/admit.js';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { canonicalJson, stableHash } from '../../../src/core/config/signature.js';
import { byCode, json, names, server, tempTree } from './helpers.js';

test('precedence managed < user < discovered < workspace < project < dynamic; the lower is reported as shadowed', async (t) => {
  const home = await tempTree(t);
  const folder = join(home, 'proj');
  const { writeFiles } = await import('./helpers.js');
  const entry = (tag: string) => ({ command: 'node', args: [`${tag}.js`] });
  await writeFiles(home, {
    'managed.json': json({ mcpServers: { s: entry('managed') } }),
    '.cursor/mcp.json': json({ mcpServers: { s: entry('discovered') } }),
    'proj/.vscode/mcp.json': json({ servers: { s: entry('workspace') } }),
    'proj/.mcp.json': json({ mcpServers: { s: entry('project') } }),
  });
  const base = {
    folders: [folder],
    env: {},
    managedPath: join(home, 'managed.json'),
    userServers: { s: entry('user') },
    discovery: { enabled: true, homeDir: home, platform: 'linux' as const, sources: ['cursor' as const] },
  };
  const withDynamic = await loadConfig({ ...base, dynamic: [{ name: 's', config: entry('dynamic') }] });
  assert.deepEqual(names(withDynamic), ['s']);
  assert.equal(server(withDynamic, 's').source.scope, 'dynamic');
  const shadowed = byCode(withDynamic, 'shadowed');
  assert.deepEqual(
    shadowed.map((p) => p.scope),
    ['managed', 'user', 'discovered', 'workspace', 'project'],
  );
  for (const p of shadowed) {
    assert.equal(p.severity, 'warning');
    assert.match(
      p.message,
      /Server "s" at .* is not used: "s" from dynamic:api \(dynamic\) takes precedence. Rename one of them to use both./,
    );
  }
  assert.equal(shadowed[0].file, join(home, 'managed.json'));
  assert.deepEqual(shadowed[3].jsonPath, ['servers', 's']);

  const withoutDynamic = await loadConfig(base);
  assert.equal(server(withoutDynamic, 's').source.scope, 'project');
  const noProject = await loadConfig({ ...base, folders: [] });
  assert.equal(server(noProject, 's').source.scope, 'discovered');
});

test('a broken higher entry still claims its name (no silent fallback to another scope)', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({ mcpServers: { s: { command: 'node', url: 'https://x.test' } } }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, userServers: { s: { command: 'node' } } });
  assert.deepEqual(names(c), []);
  assert.equal(byCode(c, 'command-and-url').length, 1);
  assert.equal(byCode(c, 'shadowed')[0].file, 'settings:mcpHost.servers');
});

test('multi-root: the same name in two folders, the first folder wins', async (t) => {
  const root = await tempTree(t, {
    'a/.mcp.json': json({ mcpServers: { db: { command: 'node', args: ['a.js'] } } }),
    'b/.mcp.json': json({ mcpServers: { db: { command: 'node', args: ['b.js'] } } }),
  });
  const c = await loadConfig({ folders: [join(root, 'a'), join(root, 'b')], env: {} });
  assert.equal(server(c, 'db').source.folder, join(root, 'a'));
  assert.equal(byCode(c, 'shadowed')[0].file, join(root, 'b', '.mcp.json'));
});

test('dedupe by content: same command or URL under two names in two files, the higher scope wins', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        everything: { command: 'npx', args: ['-y', 'server-everything'] },
        remote: { url: 'https://r.test/mcp' },
      },
    }),
  });
  const c = await loadConfig({
    folders: [dir],
    env: {},
    userServers: {
      mine: { command: 'npx', args: ['-y', 'server-everything'] },
      myRemote: { type: 'sse', url: 'https://r.test/mcp' },
      different: { command: 'npx', args: ['-y', 'server-everything', '--extra'] },
    },
  });
  assert.deepEqual(names(c), ['different', 'everything', 'remote']);
  const dups = byCode(c, 'duplicate');
  assert.deepEqual(dups.map((p) => p.server).sort(), ['mine', 'myRemote']);
  const mine = dups.find((p) => p.server === 'mine')!;
  assert.equal(mine.file, 'settings:mcpHost.servers');
  assert.match(
    mine.message,
    /Server "mine" is the same command \["npx","-y","server-everything"\] as "everything" from .*\.mcp\.json \(project/,
  );
  assert.match(dups.find((p) => p.server === 'myRemote')!.message, /same URL https:\/\/r\.test\/mcp as "remote"/);
  assert.equal(server(c, 'everything').signature, 'stdio:["npx","-y","server-everything"]');
  assert.equal(server(c, 'remote').signature, 'url:https://r.test/mcp');
});

test('dedupe keeps two names in one file, and a disabled entry never wins', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        prod: { command: 'node', args: ['s.js'], env: { STAGE: 'prod' } },
        dev: { command: 'node', args: ['s.js'], env: { STAGE: 'dev' } },
        off: { url: 'https://u.test/mcp', disabled: true },
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, userServers: { userRemote: { url: 'https://u.test/mcp' } } });
  assert.deepEqual(names(c), ['userRemote', 'prod', 'dev', 'off']);
  assert.equal(byCode(c, 'duplicate').length, 0);
  assert.equal(heldReason(server(c, 'off')), 'config');
});

test('hash: sha256 of the expanded config, independent of key order, changes with any value', async (t) => {
  const a = await tempTree(t, {
    '.mcp.json': '{"mcpServers":{"s":{"command":"node","args":["x"],"env":{"A":"1","B":"2"}}}}',
  });
  const b = await tempTree(t, {
    '.mcp.json': '{"mcpServers":{"s":{"env":{"B":"2","A":"1"},"args":["x"],"command":"node"}}}',
  });
  const c = await tempTree(t, {
    '.mcp.json': '{"mcpServers":{"s":{"command":"node","args":["x"],"env":{"A":"1","B":"3"}}}}',
  });
  const v = await tempTree(t, {
    '.mcp.json': '{"mcpServers":{"s":{"command":"node","args":["x"],"env":{"A":"${VAL}","B":"2"}}}}',
  });
  const [ha, hb, hc, hv] = await Promise.all(
    [a, b, c, v].map(async (d) => server(await loadConfig({ folders: [d], env: { VAL: '1' } }), 's').hash),
  );
  assert.match(ha, /^[0-9a-f]{64}$/);
  assert.equal(ha, hb);
  assert.notEqual(ha, hc);
  assert.equal(hv, ha, 'the hash is of the expanded config');
  const changedEnv = server(await loadConfig({ folders: [v], env: { VAL: '9' } }), 's').hash;
  assert.notEqual(changedEnv, ha);
});

test('canonicalJson sorts keys at every level and drops functions', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: () => 1 } }), '{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  assert.equal(stableHash({ x: 1, y: 2 }), stableHash({ y: 2, x: 1 }));
});
