import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, usageLine } from '../../../src/cli/args.js';
import { CliError } from '../../../src/cli/errors.js';

function usage(argv: string[]): string {
  try {
    parseArgs(argv);
  } catch (err) {
    assert.ok(err instanceof CliError);
    assert.equal(err.code, 2);
    return err.message;
  }
  assert.fail(`expected a usage error for ${argv.join(' ')}`);
}

test('global options anywhere on the line, both --opt value and --opt=value', () => {
  const a = parseArgs([
    '--json',
    'call',
    '--workspace',
    '/w',
    'srv',
    '--config=a.json',
    'tool',
    '--config',
    'b.json',
    '--args',
    '{"x":1}',
    '--timeout=500',
  ]);
  assert.equal(a.command, 'call');
  assert.deepEqual(a.positionals, ['srv', 'tool']);
  assert.equal(a.workspace, '/w');
  assert.deepEqual(a.configs, ['a.json', 'b.json']);
  assert.equal(a.json, true);
  assert.equal(a.args, '{"x":1}');
  assert.equal(a.timeoutMs, 500);
});

test('optional server argument, and -- ends options', () => {
  assert.deepEqual(parseArgs(['tools']).positionals, []);
  assert.deepEqual(parseArgs(['tools', 'github']).positionals, ['github']);
  assert.deepEqual(parseArgs(['read', 'srv', '--', '--weird-uri']).positionals, ['srv', '--weird-uri']);
});

test('--help and --version win over everything else, even without a command', () => {
  assert.equal(parseArgs(['--help']).help, true);
  assert.equal(parseArgs(['bogus', '-h']).help, true);
  assert.equal(parseArgs(['--version']).version, true);
});

test('usage errors say what is wrong', () => {
  assert.match(usage([]), /no command given/);
  assert.match(usage(['nope']), /unknown command "nope"; commands: list, tools, call/);
  assert.match(usage(['call', 'srv']), /call: missing TOOL/);
  assert.match(usage(['read']), /read: missing SERVER URI/);
  assert.match(usage(['list', 'extra']), /list: unexpected argument "extra"/);
  assert.match(usage(['tools', 'a', 'b']), /unexpected argument "b"/);
  assert.match(usage(['list', '--bogus']), /unknown option --bogus/);
  assert.match(usage(['list', '--workspace']), /--workspace needs a value/);
  assert.match(usage(['list', '--json=yes']), /--json takes no value/);
  assert.match(usage(['call', 's', 't', '--timeout', '0']), /--timeout must be a positive number/);
  assert.match(usage(['call', 's', 't', '--timeout', '1.5']), /--timeout must be a positive number/);
  assert.match(usage(['list', '--timeout', '5']), /list does not take --timeout/);
  assert.match(usage(['read', 's', 'u', '--args', '{}']), /read does not take --args/);
});

test("usage lines show each command's arguments and options", () => {
  assert.equal(usageLine('call'), 'call SERVER TOOL [--args JSON] [--timeout MS]');
  assert.equal(usageLine('tools'), 'tools [SERVER]');
  assert.equal(usageLine('doctor'), 'doctor');
});

test('add: the words after -- are the command line; --env/--header repeat in order', () => {
  const a = parseArgs([
    'add',
    'fs',
    '--scope',
    'user',
    '--env',
    'A=1',
    '--env=B=x=y',
    '--',
    'npx',
    '-y',
    '--env',
    'pkg',
  ]);
  assert.equal(a.command, 'add');
  assert.deepEqual(a.rest, ['npx', '-y', '--env', 'pkg']);
  assert.deepEqual(a.positionals, ['fs', 'npx', '-y', '--env', 'pkg']);
  assert.deepEqual(a.env, [
    ['A', '1'],
    ['B', 'x=y'],
  ]);
  assert.equal(a.scope, 'user');
  const r = parseArgs([
    'add',
    'api',
    '--url',
    'https://x/mcp',
    '--transport',
    'sse',
    '--header',
    'Authorization=Bearer ${TOKEN}',
  ]);
  assert.deepEqual(r.headers, [['Authorization', 'Bearer ${TOKEN}']]);
  assert.equal(r.transport, 'sse');
});

test('config-edit commands: option values are checked, options belong to their commands', () => {
  assert.match(usage(['add', 'x', '--scope', 'team', '--', 'node']), /--scope must be one of project, workspace, user/);
  assert.match(usage(['add', 'x', '--transport', 'grpc', '--url', 'u']), /--transport must be one of http, sse, ws/);
  assert.match(usage(['add', 'x', '--env', 'NOVALUE', '--', 'node']), /--env needs KEY=VALUE/);
  assert.match(usage(['add', 'x', 'extra']), /unexpected argument "extra"/);
  assert.match(usage(['import', '--from', 'vim']), /--from must be one of claude-desktop/);
  assert.match(usage(['list', '--scope', 'user']), /list does not take --scope/);
  assert.deepEqual(parseArgs(['add-json', 'x', '{"url":"u"}']).positionals, ['x', '{"url":"u"}']);
  assert.equal(parseArgs(['search']).command, 'search');
  assert.equal(parseArgs(['remove', 'x', '--user-settings', '/s.json']).userSettings, '/s.json');
  assert.equal(usageLine('remove'), 'remove NAME [--scope project|workspace|user]');
});

test('serve --exclude NAME is repeatable, both spellings, and only for serve', () => {
  assert.deepEqual(parseArgs(['serve', '--exclude', 'github', '--exclude=slack']).exclude, ['github', 'slack']);
  assert.deepEqual(parseArgs(['serve']).exclude, []);
  assert.match(usage(['serve', '--exclude', '']), /--exclude needs a server name/);
  assert.match(usage(['tools', '--exclude', 'github']), /tools does not take --exclude/);
  assert.match(usageLine('serve'), /\[--exclude NAME\]/);
});

test('search takes --all or --cursor CURSOR, not both; no other command takes them', () => {
  assert.equal(parseArgs(['search', 'x', '--all']).all, true);
  assert.equal(parseArgs(['search', '--cursor', 'abc']).cursor, 'abc');
  assert.throws(() => parseArgs(['search', '--all', '--cursor', 'abc']), /--all or --cursor, not both/);
  assert.throws(() => parseArgs(['search', '--cursor', ' ']), /--cursor needs/);
  assert.throws(() => parseArgs(['list', '--all']), /list does not take --all/);
  assert.equal(usageLine('search'), 'search [QUERY] [--cursor CURSOR] [--all]');
});
