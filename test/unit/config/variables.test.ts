/** Variable expansion, inputs and envFile, through loadConfig on real files. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../src/core/config/load.js';
import { parseEnvFile } from '../../../src/core/config/env-file.js';
import { expandString } from '../../../src/core/config/variables.js';
import { byCode, fakeInputs, json, names, server, tempTree } from './helpers.js';

test('${VAR}, ${VAR:-default}, ${env:VAR}, ${userHome}, ${workspaceFolder} in command, args, env, cwd, url and headers', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        local: {
          command: '${NODE_BIN}',
          args: ['${workspaceFolder}/srv.js', '--port=${PORT:-3000}', '--mode=${MODE:-dev}'],
          env: { TOKEN: '${env:TOKEN}', HOME_DIR: '${userHome}' },
          cwd: '${workspaceFolder}/run',
        },
        remote: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
      },
    }),
  });
  const c = await loadConfig({
    folders: [dir],
    homeDir: '/home/tester',
    env: { NODE_BIN: '/usr/bin/node', TOKEN: 't0k', HOST: 'api.test', MODE: '' },
  });
  assert.deepEqual(c.problems, []);
  assert.deepEqual(server(c, 'local').config, {
    type: 'stdio',
    command: '/usr/bin/node',
    args: [`${dir}/srv.js`, '--port=3000', '--mode=dev'],
    env: { TOKEN: 't0k', HOME_DIR: '/home/tester' },
    cwd: `${dir}/run`,
  });
  assert.deepEqual(server(c, 'remote').config, {
    type: 'http',
    url: 'https://api.test/mcp',
    headers: { Authorization: 'Bearer t0k' },
  });
});

test('an unresolved variable names the variable and where it is; that server is excluded, others load', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: {
        a: { command: 'node', env: { KEY: '${MISSING_KEY}' } },
        b: { url: 'https://x.test/${env:ALSO_MISSING}' },
        c: { command: '${config:foo}' },
        ok: { command: 'node' },
        off: { command: 'node', args: ['${NOT_SET}'], disabled: true },
      },
    }),
  });
  const file = join(dir, '.mcp.json');
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['ok', 'off'], 'a disabled server does not need its variables');
  const un = byCode(c, 'unresolved-variable');
  assert.equal(un.length, 3);
  const a = un.find((p) => p.server === 'a')!;
  assert.equal(a.file, file);
  assert.deepEqual(a.jsonPath, ['mcpServers', 'a', 'env', 'KEY']);
  assert.match(
    a.message,
    /\$\{MISSING_KEY\} in "env.KEY" cannot be resolved: the environment variable MISSING_KEY is not set \(set it, or write \$\{MISSING_KEY:-default\}\)/,
  );
  assert.ok(a.line! >= 4);
  const b = un.find((p) => p.server === 'b')!;
  assert.deepEqual(b.jsonPath, ['mcpServers', 'b', 'url']);
  assert.match(b.message, /\$\{env:ALSO_MISSING\}/);
  assert.match(un.find((p) => p.server === 'c')!.message, /not a supported variable/);
  assert.equal(byCode(c, 'unresolved-variable').filter((p) => p.server === 'off').length, 0);
});

test('${workspaceFolder} in the user setting: the one open folder; with several, ask for ${workspaceFolder:name}', async (t) => {
  const root = await tempTree(t, { 'alpha/x': '', 'beta/x': '' });
  const alpha = join(root, 'alpha');
  const beta = join(root, 'beta');
  const one = await loadConfig({
    folders: [alpha],
    userServers: { u: { command: 'node', args: ['${workspaceFolder}'] } },
    env: {},
  });
  const u = server(one, 'u').config;
  assert.ok(u.type === 'stdio');
  assert.deepEqual(u.args, [alpha]);
  const two = await loadConfig({
    folders: [alpha, beta],
    userServers: {
      u: { command: 'node', args: ['${workspaceFolder}'] },
      v: { command: 'node', args: ['${workspaceFolder:beta}'] },
    },
    env: {},
  });
  assert.match(
    byCode(two, 'unresolved-variable')[0].message,
    /several folders are open; use \$\{workspaceFolder:<name>\}/,
  );
  const v = server(two, 'v').config;
  assert.ok(v.type === 'stdio');
  assert.deepEqual(v.args, [beta]);
});

test("${input:id}: resolved through the InputResolver with the file's description and password flag, once per file", async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': json({
      inputs: [{ type: 'promptString', id: 'api-key', description: 'Your API key', password: true }],
      servers: {
        s1: { command: 'node', env: { KEY: '${input:api-key}' } },
        s2: { url: 'https://x.test/mcp', headers: { 'X-API-Key': '${input:api-key}' } },
        undeclared: { command: 'node', args: ['${input:nope}'] },
      },
    }),
  });
  const inputs = fakeInputs({ 'api-key': 'secret-1', nope: 'x' });
  const c = await loadConfig({ folders: [dir], env: {}, inputs });
  const s1 = server(c, 's1').config;
  assert.ok(s1.type === 'stdio');
  assert.deepEqual(s1.env, { KEY: 'secret-1' });
  const s2 = server(c, 's2').config;
  assert.ok(s2.type === 'http');
  assert.deepEqual(s2.headers, { 'X-API-Key': 'secret-1' });
  assert.deepEqual(inputs.calls, [
    { id: 'api-key', file: join(dir, '.vscode', 'mcp.json'), description: 'Your API key', password: true },
  ]);
  const und = byCode(c, 'unresolved-variable').find((p) => p.server === 'undeclared')!;
  assert.match(und.message, /input "nope" is not declared; add \{ "id": "nope"/);
  // The approval hash does not depend on the input's value.
  const other = await loadConfig({ folders: [dir], env: {}, inputs: fakeInputs({ 'api-key': 'secret-2' }) });
  assert.equal(server(other, 's1').approvalHash, server(c, 's1').approvalHash);
  assert.notEqual(server(other, 's1').hash, server(c, 's1').hash);
});

test('${input:id}: no value given (or no resolver) is a problem, not an empty string', async (t) => {
  const dir = await tempTree(t, {
    '.mcp.json': json({
      mcpServers: { s: { command: 'node', args: ['--key', '${input:key}'] }, ok: { command: 'node' } },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, inputs: fakeInputs({}) });
  assert.deepEqual(names(c), ['ok']);
  assert.match(byCode(c, 'unresolved-variable')[0].message, /\$\{input:key\}.*no value was given for input "key"/);
  const none = await loadConfig({ folders: [dir], env: {} });
  assert.match(byCode(none, 'unresolved-variable')[0].message, /cannot be asked for here/);
  const throwing = await loadConfig({
    folders: [dir],
    env: {},
    inputs: { resolve: () => Promise.reject(new Error('cancelled')) },
  });
  assert.equal(byCode(throwing, 'unresolved-variable').length, 1);
});

test('phase 2 does not re-expand text produced by an environment variable', () => {
  const ctx = { env: { A: '${B}', B: 'leak' }, folders: [], userHome: '/h' };
  const p1 = expandString('${A}', ctx, []);
  assert.equal(p1.value, '${B}');
  assert.equal(expandString(p1.value, ctx, [], new Map()).value, '${B}');
});

test('envFile: KEY=VALUE, comments, quotes, export; relative to the folder; env wins; listed for watching', async (t) => {
  const dir = await tempTree(t, {
    '.env': [
      '# a comment',
      'PLAIN=value # trailing comment',
      'export EXPORTED=yes',
      'DOUBLE="two words\\nnext"',
      "SINGLE='it''s'",
      "SINGLE2='a # not a comment'",
      'OVERRIDE=from-file',
      'EMPTY=',
      'not a line',
      '',
    ].join('\n'),
    '.mcp.json': json({ mcpServers: { s: { command: 'node', envFile: '.env', env: { OVERRIDE: 'from-entry' } } } }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  const s = server(c, 's').config;
  assert.ok(s.type === 'stdio');
  assert.equal(s.env!.PLAIN, 'value');
  assert.equal(s.env!.EXPORTED, 'yes');
  assert.equal(s.env!.DOUBLE, 'two words\nnext');
  assert.equal(s.env!.SINGLE2, 'a # not a comment');
  assert.equal(s.env!.OVERRIDE, 'from-entry');
  assert.equal(s.env!.EMPTY, '');
  const warn = byCode(c, 'env-file')[0];
  assert.equal(warn.severity, 'warning');
  assert.match(warn.message, /lines 5, 9 of .*\.env are not KEY=VALUE/);
  assert.ok(c.files!.includes(join(dir, '.env')));
});

test('envFile missing: the server is excluded with the path to fix', async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': json({
      servers: { s: { command: 'node', envFile: '${workspaceFolder}/nope.env' }, ok: { command: 'node' } },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {} });
  assert.deepEqual(names(c), ['ok']);
  const p = byCode(c, 'env-file')[0];
  assert.deepEqual(p.jsonPath, ['servers', 's', 'envFile']);
  assert.match(p.message, /the envFile .*nope\.env cannot be read \(ENOENT\)/);
});

test('parseEnvFile: multi-line double-quoted values and CRLF', () => {
  const r = parseEnvFile('KEY="-----BEGIN-----\r\nabc\r\n-----END-----"\r\nNEXT=1\r\n');
  assert.equal(r.values.KEY, '-----BEGIN-----\nabc\n-----END-----');
  assert.equal(r.values.NEXT, '1');
  assert.deepEqual(r.badLines, []);
});

test('an unresolved input points at the string that uses it', async (t) => {
  const dir = await tempTree(t, {
    '.vscode/mcp.json': json({
      inputs: [{ id: 'k' }],
      servers: {
        s: { url: 'https://x.test/mcp', headers: { 'X-Key': '${input:k}' } },
        u: { command: 'node', env: { A: '${input:undeclared}' } },
      },
    }),
  });
  const c = await loadConfig({ folders: [dir], env: {}, inputs: fakeInputs({}) });
  const un = byCode(c, 'unresolved-variable');
  assert.deepEqual(un.find((p) => p.server === 's')!.jsonPath, ['servers', 's', 'headers', 'X-Key']);
  assert.deepEqual(un.find((p) => p.server === 'u')!.jsonPath, ['servers', 'u', 'env', 'A']);
});
