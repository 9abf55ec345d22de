import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  splitCommandLine,
  suggestServerName,
  validateCommandLine,
  validateServerName,
  validateServerUrl,
} from '../../../src/extension/config/cmdline.js';

test('command lines split like a POSIX shell, without expansion', () => {
  assert.deepEqual(splitCommandLine(`node "my server.js" --flag 'a b' x\\ y "q\\"q" $HOME`), [
    'node',
    'my server.js',
    '--flag',
    'a b',
    'x y',
    'q"q',
    '$HOME',
  ]);
  assert.deepEqual(splitCommandLine('  npx   -y  pkg  '), ['npx', '-y', 'pkg']);
  assert.deepEqual(splitCommandLine(`cmd ''`), ['cmd', '']);
  assert.throws(() => splitCommandLine('node "open'), /unclosed " quote/);
  assert.match(validateCommandLine('') ?? '', /Type the command/);
  assert.match(validateCommandLine("a 'b") ?? '', /Cannot read this command line: unclosed ' quote/);
  assert.equal(validateCommandLine('npx -y x'), undefined);
});

test('names are suggested from the package, script folder or host, and made unique', () => {
  const none = new Set<string>();
  assert.equal(suggestServerName('npx -y @modelcontextprotocol/server-everything', none), 'everything');
  assert.equal(
    suggestServerName('node /repo/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio', none),
    'everything',
  );
  assert.equal(suggestServerName('uvx mcp-server-git', none), 'git');
  assert.equal(suggestServerName('python3 weather_mcp.py', none), 'weather_mcp');
  assert.equal(suggestServerName('https://api.github.com/mcp', none), 'github');
  assert.equal(
    suggestServerName('npx -y @modelcontextprotocol/server-everything', new Set(['everything'])),
    'everything-2',
  );
});

test('names and URLs are validated with messages that say what to do', () => {
  assert.equal(validateServerName('ok_name-1', new Set()), undefined);
  assert.match(validateServerName('a b', new Set()) ?? '', /letters, digits/);
  assert.match(validateServerName('dup', new Set(['dup'])) ?? '', /already exists/);
  assert.match(validateServerName('', new Set()) ?? '', /Give the server a name/);
  assert.equal(validateServerUrl('https://x.test/mcp', 'http'), undefined);
  assert.match(validateServerUrl('ftp://x', 'http') ?? '', /starts with http: or https:/);
  assert.match(validateServerUrl('https://x', 'ws') ?? '', /ws: or wss:/);
  assert.match(validateServerUrl('not a url', 'sse') ?? '', /full URL/);
});
