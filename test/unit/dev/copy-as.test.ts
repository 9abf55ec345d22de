import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  claudeMcpAddLine,
  mcpHostCallLine,
  mcpJsonSnippet,
  shellQuote,
  withSecretReferences,
} from '../../../src/core/dev/copy-as.js';

/** What a real POSIX shell makes of a line: its words, one per line. */
function shellWords(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `for w in ${line.replace(/^\S+/, '')}; do printf '%s\\0' "$w"; done`], {
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

test('shellQuote leaves safe words bare and single-quotes the rest so the shell gives them back unchanged', () => {
  assert.equal(shellQuote('echo'), 'echo');
  assert.equal(shellQuote(''), "''");
  for (const w of ['{"text":"it\'s $HOME"}', 'a b', '${TOKEN}', "'", 'semi;colon']) {
    const words = shellWords(`x ${shellQuote(w)}`);
    assert.deepEqual(words, [w]);
  }
});

test('mcpHostCallLine: arguments as JSON that survive the shell; none when empty', () => {
  const args = { text: 'it\'s a "test" $HOME', n: 3 };
  const line = mcpHostCallLine('my server', 'echo', args, { timeoutMs: 5000 });
  assert.match(line, /^mcp-host call 'my server' echo --args '/);
  const words = shellWords(line);
  assert.deepEqual(words.slice(0, 4), ['call', 'my server', 'echo', '--args']);
  assert.deepEqual(JSON.parse(words[4]!), args);
  assert.deepEqual(words.slice(5), ['--timeout', '5000']);
  assert.equal(mcpHostCallLine('s', 'pid', {}), 'mcp-host call s pid');
});

test('secrets become ${…} references: every literal env value, secret headers keeping their scheme', () => {
  const e = withSecretReferences({
    command: 'npx',
    env: { GITHUB_TOKEN: 'ghp_literal', REGION: 'eu', KEY: '${env:MY_KEY}' },
    headers: { Authorization: 'Bearer abc123', 'X-Api-Key': 'k', Accept: 'text/plain' },
  });
  assert.deepEqual(e.env, { GITHUB_TOKEN: '${GITHUB_TOKEN}', REGION: '${REGION}', KEY: '${env:MY_KEY}' });
  assert.deepEqual(e.headers, {
    Authorization: 'Bearer ${AUTHORIZATION}',
    'X-Api-Key': '${X_API_KEY}',
    Accept: 'text/plain',
  });
});

test('claudeMcpAddLine for a stdio server: env as -e with references, the command after --', () => {
  const line = claudeMcpAddLine('gh', {
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-github'],
    env: { GITHUB_TOKEN: 'ghp_secret_value' },
  });
  assert.ok(!line.includes('ghp_secret_value'));
  assert.deepEqual(shellWords(line), [
    'mcp',
    'add',
    '--transport',
    'stdio',
    'gh',
    '-e',
    'GITHUB_TOKEN=${GITHUB_TOKEN}',
    '--',
    'npx',
    '-y',
    '@modelcontextprotocol/server-github',
  ]);
});

test('claudeMcpAddLine for remote servers: transport from type or URL, headers as -H, scope', () => {
  const line = claudeMcpAddLine(
    'api',
    { url: 'https://api.example.com/sse', headers: { Authorization: 'Bearer s3cr3t' } },
    { scope: 'user' },
  );
  assert.ok(!line.includes('s3cr3t'));
  assert.deepEqual(shellWords(line), [
    'mcp',
    'add',
    '--transport',
    'sse',
    '--scope',
    'user',
    'api',
    'https://api.example.com/sse',
    '-H',
    'Authorization: Bearer ${AUTHORIZATION}',
  ]);
  assert.match(
    claudeMcpAddLine('h', { type: 'streamableHttp', url: 'https://x.example/mcp' }),
    /--transport http h https:\/\/x.example\/mcp$/,
  );
});

test('mcpJsonSnippet: a complete .mcp.json document with references, never the values', () => {
  const json = mcpJsonSnippet('gh', { command: 'npx', args: ['server'], env: { TOKEN: 'literal-secret' } });
  assert.ok(!json.includes('literal-secret'));
  assert.deepEqual(JSON.parse(json), {
    mcpServers: { gh: { type: 'stdio', command: 'npx', args: ['server'], env: { TOKEN: '${TOKEN}' } } },
  });
  assert.deepEqual(JSON.parse(mcpJsonSnippet('r', { url: 'wss://x.example/ws' })), {
    mcpServers: { r: { type: 'ws', url: 'wss://x.example/ws' } },
  });
});

test('credentials in arguments and URLs become references in copied lines and snippets (issue 29, item 3)', () => {
  const entry = {
    command: 'npx',
    args: ['srv', '--api-key', 'sk-ant-abcdefghijklmnop1234', '--token=tok123456', 'Authorization: Bearer abc.def.ghi'],
  };
  const line = claudeMcpAddLine('s', entry);
  const json = mcpJsonSnippet('s', entry);
  for (const secret of ['sk-ant-abcdefghijklmnop1234', 'tok123456', 'abc.def.ghi']) {
    assert.ok(!line.includes(secret), line);
    assert.ok(!json.includes(secret), json);
  }
  assert.deepEqual(shellWords(line).slice(-5), [
    'srv',
    '--api-key',
    '${API_KEY}',
    '--token=${TOKEN}',
    'Authorization: ${AUTHORIZATION}',
  ]);
  const remote = { url: 'https://bob:hunter22@x.example/mcp?api_key=abc123&q=1' };
  assert.equal(
    withSecretReferences(remote).url,
    'https://${URL_USER}:${URL_PASSWORD}@x.example/mcp?api_key=${API_KEY}&q=1',
  );
  assert.ok(!claudeMcpAddLine('r', remote).includes('hunter22'));
});

test('copied lines quoted per shell: PowerShell single quotes, cmd double quotes with % and ! outside', () => {
  const words = ['mcp-host', 'call', 's', 't', '--args', `{"q":"it's 100% & done!"}`];
  assert.equal(
    mcpHostCallLine('s', 't', { q: "it's 100% & done!" }, { shell: 'powershell' }),
    `mcp-host call s t --args '{"q":"it''s 100% & done!"}'`,
  );
  assert.equal(
    mcpHostCallLine('s', 't', { q: "it's 100% & done!" }, { shell: 'cmd' }),
    `mcp-host call s t --args "{\\"q\\":\\"it's 100"^%" & done"^!"\\"}"`,
  );
  assert.deepEqual(shellWords(mcpHostCallLine('s', 't', { q: "it's 100% & done!" })), words.slice(1));
  // A word PowerShell would read as an operator or a splat is quoted.
  assert.equal(
    claudeMcpAddLine('x', { command: '@evil', args: ['$(calc)', 'a;b'] }, { shell: 'powershell' }).split(' -- ')[1],
    `'@evil' '$(calc)' 'a;b'`,
  );
});
