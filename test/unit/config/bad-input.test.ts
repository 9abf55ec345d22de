/** Every kind of bad input becomes a problem with file, JSON path and an actionable message; other servers still load. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { byCode, json, names, server, tempTree } from './helpers.js';

const good = { command: 'node', args: ['good.js'] };

test('invalid JSON in .mcp.json: error with line and column, nothing from that file, other files load', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n',
    '.vscode/mcp.json': json({ servers: { ok: good } }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  const [p] = byCode(c, 'invalid-json');
  assert.equal(p.file, join(dir, '.mcp.json'));
  assert.deepEqual(p.jsonPath, []);
  assert.equal(p.line, 4);
  assert.equal(p.column, 5);
  assert.match(p.message, /line 4, column 5: expected ',' between entries/);
  assert.match(p.message, /Fix the file/);
  assert.deepEqual(names(c), ['ok']);
});

test('comments: allowed in .vscode/mcp.json (JSONC), reported in .mcp.json (plain JSON)', async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': '{\n  // my servers\n  "servers": { "w": { "command": "node", }, },\n}\n',
    '.mcp.json': '{\n  // not allowed here\n  "mcpServers": {}\n}\n',
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['w']);
  const [p] = byCode(c, 'invalid-json');
  assert.equal(p.file, join(dir, '.mcp.json'));
  assert.equal(p.line, 2);
  assert.match(p.message, /comments are not allowed/);
});

test('trailing comma in plain JSON is named as such', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': '{ "mcpServers": { "a": { "command": "x" }, } }' });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.match(byCode(c, 'invalid-json')[0].message, /trailing comma is not allowed/);
});

test('a file that is not an object, and a servers key that is not an object', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': '[1,2]', '.vscode/mcp.json': json({ servers: ['x'] }) });
  const c = await loadConfig({ folders: [dir], env: {} });
  const schema = byCode(c, 'schema');
  assert.equal(schema.length, 2);
  assert.match(schema.find((p) => p.file.endsWith('.mcp.json'))!.message, /must contain a JSON object.*an array/);
  const ws = schema.find((p) => p.file.endsWith(join('.vscode', 'mcp.json')))!;
  assert.deepEqual(ws.jsonPath, ['servers']);
  assert.match(ws.message, /"servers" must be an object of servers keyed by name/);
});

test('wrong types: path of the field, expected and actual type; the good server still loads', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        badArgs: { command: 'node', args: ['ok', 42] },
        badEnv: { command: 'node', env: { A: { nested: true } } },
        badTimeout: { command: 'node', timeout: -5 },
        badHeaders: { url: 'https://x.test/mcp', headers: { Authorization: 1 } },
        notObject: 'npx foo',
        good,
      },
    }),
  });
  const file = join(dir, '.mcp.json');
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['good']);
  const find = (server: string) => c.problems.find((p) => p.server === server)!;
  assert.deepEqual(find('badArgs').jsonPath, ['mcpServers', 'badArgs', 'args', 1]);
  assert.equal(find('badArgs').file, file);
  assert.match(find('badArgs').message, /"args\[1\]" of server "badArgs" must be a string, but it is a number \(42\)/);
  assert.deepEqual(find('badEnv').jsonPath, ['mcpServers', 'badEnv', 'env', 'A']);
  assert.match(
    find('badEnv').message,
    /"env.A" of server "badEnv" must be a string \(or a number or boolean\), but it is an object/,
  );
  assert.match(
    find('badTimeout').message,
    /"timeout" of server "badTimeout" must be a positive number of milliseconds/,
  );
  assert.deepEqual(find('badHeaders').jsonPath, ['mcpServers', 'badHeaders', 'headers', 'Authorization']);
  assert.match(find('notObject').message, /must be an object like/);
  // Problems point at the entry in the file text.
  assert.ok(find('badArgs').line! > 1);
});

test('unknown type, both command and url, neither: one problem each with what to do', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        weird: { type: 'grpc', url: 'https://x.test' },
        both: { command: 'node', url: 'https://x.test' },
        neither: { args: ['x'] },
        stdioNoCommand: { type: 'stdio', url: 'https://x.test' },
        sseNoUrl: { type: 'sse', command: 'node' },
        good,
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['good']);
  const weird = byCode(c, 'unknown-type')[0];
  assert.deepEqual(weird.jsonPath, ['mcpServers', 'weird', 'type']);
  assert.match(weird.message, /unknown "type" "grpc".*Use "stdio".*"sse", "http" or "ws"/);
  const both = byCode(c, 'command-and-url')[0];
  assert.deepEqual(both.jsonPath, ['mcpServers', 'both']);
  assert.match(both.message, /sets both "command" and "url"/);
  const neither = byCode(c, 'no-command-or-url')[0];
  assert.equal(neither.server, 'neither');
  assert.match(neither.message, /has neither "command" nor "url". Add "command"/);
  assert.match(c.problems.find((p) => p.server === 'stdioNoCommand')!.message, /"type": "stdio" but no "command"/);
  assert.match(c.problems.find((p) => p.server === 'sseNoUrl')!.message, /"type": "sse" but no "url"/);
});

test('types: aliases, inference, URL checked after expansion, fields of the other kind warned about', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        s1: { type: 'streamableHttp', url: 'https://a.test/mcp' },
        s2: { type: 'streamable-http', url: 'https://b.test/mcp' },
        s3: { url: 'https://c.test/sse' },
        s4: { url: 'wss://d.test/mcp' },
        s5: { url: 'https://e.test/mcp', args: ['ignored'] },
        s6: { command: 'node' },
        badScheme: { type: 'ws', url: 'https://f.test/mcp' },
        notUrl: { url: '${HOST}/mcp' },
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: { HOST: 'not a url' } });
  assert.equal(server(c, 's1').config.type, 'http');
  assert.equal(server(c, 's2').config.type, 'http');
  assert.equal(server(c, 's3').config.type, 'sse');
  assert.equal(server(c, 's4').config.type, 'ws');
  assert.equal(server(c, 's6').config.type, 'stdio');
  assert.deepEqual(server(c, 's6').config, { type: 'stdio', command: 'node', args: [] });
  const ignored = byCode(c, 'ignored-field')[0];
  assert.equal(ignored.severity, 'warning');
  assert.deepEqual(ignored.jsonPath, ['mcpServers', 's5', 'args']);
  assert.match(c.problems.find((p) => p.server === 'badScheme')!.message, /must start with ws:\/\/ or wss:\/\//);
  const notUrl = c.problems.find((p) => p.server === 'notUrl')!;
  assert.deepEqual(notUrl.jsonPath, ['mcpServers', 'notUrl', 'url']);
  assert.match(notUrl.message, /"not a url\/mcp" is not a valid URL/);
  assert.ok(!names(c).includes('badScheme') && !names(c).includes('notUrl'));
});

test('oauth: authServerMetadataUrl must be https; a valid block is kept', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        plain: {
          url: 'https://a.test/mcp',
          oauth: { authServerMetadataUrl: 'http://idp.test/.well-known/openid-configuration' },
        },
        port: { url: 'https://a.test/mcp2', oauth: { callbackPort: 70000 } },
        ok: {
          url: 'https://b.test/mcp',
          oauth: {
            clientId: 'abc',
            callbackPort: 33418,
            authServerMetadataUrl: 'https://idp.test/meta',
            scopes: ['read'],
          },
        },
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['ok']);
  const plain = c.problems.find((p) => p.server === 'plain')!;
  assert.deepEqual(plain.jsonPath, ['mcpServers', 'plain', 'oauth', 'authServerMetadataUrl']);
  assert.match(plain.message, /must be an https:\/\/ URL/);
  assert.match(c.problems.find((p) => p.server === 'port')!.message, /port between 1 and 65535/);
  const ok = server(c, 'ok').config;
  assert.ok(ok.type === 'http');
  assert.deepEqual(ok.oauth, {
    clientId: 'abc',
    callbackPort: 33418,
    authServerMetadataUrl: 'https://idp.test/meta',
    scopes: ['read'],
  });
});

test('user setting that is not an object, and a bad entry inside it', async () => {
  const c1 = await loadConfig({ folders: [], userServers: ['x'], env: {} });
  assert.equal(c1.problems[0].file, 'settings:mcpHost.servers');
  assert.match(c1.problems[0].message, /"mcpHost.servers" must be an object/);
  const c2 = await loadConfig({ folders: [], userServers: { bad: { command: 3 }, good }, env: {} });
  assert.deepEqual(names(c2), ['good']);
  assert.deepEqual(c2.problems[0].jsonPath, ['bad', 'command']);
  assert.equal(c2.problems[0].file, 'settings:mcpHost.servers');
});

test('an unreadable config path (a directory) is a problem, not a crash', async (t) => {
  const dir = await tempTree(t, { '.mcp.json/keep': '' });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.equal(byCode(c, 'unreadable')[0].file, join(dir, '.mcp.json'));
  assert.match(byCode(c, 'unreadable')[0].message, /Cannot read the file \(EISDIR\)/);
});

test('an empty file is no servers and no problem', async (t) => {
  const dir = await tempTree(t, { '.mcp.json': '  \n' });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(c, { servers: [], problems: [], files: c.files });
});

test('the same name twice in one file: warned about with both lines; an empty name is an error', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json':
      '{\n  "mcpServers": {\n    "a": { "command": "first" },\n    "": { "command": "x" },\n    "a": { "command": "second" }\n  }\n}\n',
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['a']);
  const a = server(c, 'a').config;
  assert.ok(a.type === 'stdio');
  assert.equal(a.command, 'second');
  const dup = byCode(c, 'duplicate-name')[0];
  assert.equal(dup.severity, 'warning');
  assert.equal(dup.line, 5);
  assert.match(dup.message, /defined twice in this file \(lines 3 and 5\); only the one on line 5 is used/);
  const empty = byCode(c, 'schema')[0];
  assert.deepEqual(empty.jsonPath, ['mcpServers', '']);
  assert.match(empty.message, /empty name/);
});
