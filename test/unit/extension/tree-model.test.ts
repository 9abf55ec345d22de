import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  categoriesOf,
  displayKind,
  escapeMarkdown,
  problemView,
  scopesInUse,
  serverContextValue,
  serverTooltip,
  serverView,
  toolView,
  visibleProblems,
} from '../../../src/extension/tree/model.js';
import { connected, def, failed, held, snap, tool } from './fixtures.js';

const noRedact = (t: string): string => t;

test('a connected server shows counts, a green check and children', () => {
  const s = snap('everything', connected, {
    tools: [tool('everything', 'echo'), tool('everything', 'add')],
    prompts: [{ server: 'everything', name: 'p', arguments: [] }],
  });
  const v = serverView(s, noRedact);
  assert.equal(v.description, '2 tools, 1 prompt');
  assert.equal(v.icon, 'pass-filled');
  assert.equal(v.color, 'testing.iconPassed');
  assert.equal(v.contextValue, 'mcpServer.connected');
  assert.equal(v.collapsible, 'collapsed');
  assert.deepEqual(
    categoriesOf(s).map((c) => c.kind),
    ['tools', 'prompts'],
  );
});

test('a failed server shows the first line of its error, shortened, and no children', () => {
  const long = `command not found: definitely-missing-binary-${'x'.repeat(80)}\nsecond line`;
  const v = serverView(snap('broken', failed('command-not-found', long)), noRedact);
  assert.match(v.description ?? '', /^failed: command not found: definitely-missing/);
  assert.ok((v.description ?? '').length <= 70, v.description);
  assert.ok(!(v.description ?? '').includes('second line'));
  assert.equal(v.icon, 'error');
  assert.equal(v.collapsible, 'none');
  assert.equal(v.contextValue, 'mcpServer.failed');
});

test('admission overrides the host state in label, icon and context value', () => {
  const s = held('proj', 'untrusted');
  assert.equal(serverView(s, noRedact).description, 'workspace not trusted');
  assert.equal(serverContextValue(held('proj', 'not-approved')), 'mcpServer.not-approved');
  assert.equal(displayKind(snap('x', { kind: 'disabled', reason: 'user' })), 'stopped');
  assert.equal(displayKind(held('x', 'config')), 'disabled');
  assert.equal(serverView(held('x', 'policy'), noRedact).description, 'denied by policy');
  assert.equal(serverView({ ...held('x', 'user-disabled'), state: connected }, noRedact).collapsible, 'none');
});

test('remote servers carry .remote so authenticate/sign out menus can match', () => {
  const s = snap(
    'r',
    { kind: 'needs-auth', message: 'sign in', at: 0 },
    { definition: def('r', { config: { type: 'http', url: 'https://x.test/mcp' } }) },
  );
  assert.equal(serverContextValue(s), 'mcpServer.needs-auth.remote');
});

test('a jwt-bearer server in needs-auth says it waits for the company sign-in; others keep "needs authentication"', () => {
  const waiting = { kind: 'needs-auth', message: 'sign in', at: 0 } as const;
  const viaIdp = snap('idp', waiting, {
    definition: def('idp', { config: { type: 'http', url: 'https://x.test/mcp', oauth: { grantType: 'jwt-bearer' } } }),
  });
  const plain = snap('r', waiting, { definition: def('r', { config: { type: 'http', url: 'https://x.test/mcp' } }) });
  assert.equal(serverView(viaIdp, (t) => t).description, 'waits for the company sign-in');
  assert.match(
    serverTooltip(viaIdp, (t) => t),
    /company identity provider/,
  );
  assert.equal(serverView(plain, (t) => t).description, 'needs authentication');
  assert.doesNotMatch(
    serverTooltip(plain, (t) => t),
    /company identity provider/,
  );
});

test('the tooltip lists transport, redacted command, source, server info and instructions, with server text escaped', () => {
  const s = snap(
    'everything',
    { ...connected, instructions: 'Use **bold** [link](http://evil)' },
    {
      definition: def('everything', {
        config: { type: 'stdio', command: 'node', args: ['srv.js', '--token', 'sekrit'] },
      }),
    },
  );
  const tip = serverView(s, (t) => t.replace('sekrit', '***')).tooltip ?? '';
  assert.match(tip, /Transport: ` stdio `/);
  assert.match(tip, /Command: ` node srv\.js --token \*\*\* `/);
  assert.ok(!tip.includes('sekrit'));
  assert.match(tip, /Source: ` \/w\/\.mcp\.json ` \(Project/);
  assert.match(tip, /Server: ` everything 2\.0\.0 `/);
  assert.match(tip, /Instructions: Use \\\*\\\*bold\\\*\\\* \\\[link\\\]\\\(http:\/\/evil\\\)/);
});

test('tools are marked read-only / destructive and clicking one calls it', () => {
  const ro = toolView(tool('s', 'read', { readOnlyHint: true }));
  assert.equal(ro.description, 'read-only');
  assert.equal(ro.icon, 'eye');
  const d = toolView(tool('s', 'rm', { destructiveHint: true }));
  assert.equal(d.description, 'destructive');
  assert.equal(d.icon, 'warning');
  assert.equal(d.contextValue, 'mcpTool.destructive');
  assert.deepEqual(d.command, {
    command: 'mcpHost.callTool',
    title: 'Call Tool',
    arguments: [{ server: 's', tool: 'rm' }],
  });
});

test('problems open their file at the entry; shadowed warnings are not shown', () => {
  const p = {
    severity: 'error' as const,
    code: 'schema',
    message: 'needs "command" or "url"',
    file: '/w/.mcp.json',
    jsonPath: ['mcpServers', 'bad'],
    server: 'bad',
  };
  const v = problemView(p, noRedact);
  assert.equal(v.label, 'bad');
  assert.match(v.description ?? '', /config error: needs "command"/);
  assert.deepEqual(v.command?.arguments, [{ file: '/w/.mcp.json', jsonPath: ['mcpServers', 'bad'] }]);
  const shadowed = { ...p, severity: 'warning' as const, code: 'shadowed' };
  assert.deepEqual(visibleProblems([p, shadowed]), [p]);
});

test('grouping by scope is offered only when more than one scope is in use', () => {
  assert.deepEqual(scopesInUse([snap('a', connected), snap('b', connected)]), ['project']);
  assert.deepEqual(
    scopesInUse([snap('a', connected), snap('u', connected, { definition: def('u', { scope: 'user' }) })]),
    ['project', 'user'],
  );
});

test('escapeMarkdown neutralises links, emphasis and HTML', () => {
  assert.equal(escapeMarkdown('[x](y) *a* <b>'), '\\[x\\]\\(y\\) \\*a\\* \\<b\\>');
});

test('the tooltip of a server admission held back says why (e.g. our own gateway)', () => {
  const d = def('mcp-host', { config: { type: 'http', url: 'http://127.0.0.1:9/mcp' } });
  const s = snap(
    'mcp-host',
    { kind: 'disabled', reason: 'config' },
    {
      definition: {
        ...d,
        admission: { run: false, reason: 'config', message: 'this entry points at MCP Host’s own gateway' },
      },
    },
  );
  assert.match(serverTooltip(s, noRedact), /own gateway/);
});

test('a server reconnected by the host says why while it connects; a plain (re)connect does not', () => {
  const since = Date.now();
  const why = serverView(
    snap('deaf', {
      kind: 'pending',
      attempt: 1,
      maxAttempts: 1,
      since,
      reason: 'unresponsive (it did not answer a ping within 2000 ms)',
    }),
    noRedact,
  );
  assert.equal(why.description, 'reconnecting: unresponsive (it did not answer a ping within 2000 ms)');
  assert.equal(why.icon, 'loading~spin');
  assert.equal(
    serverView(snap('a', { kind: 'pending', attempt: 1, maxAttempts: 1, since }), noRedact).description,
    'connecting',
  );
  assert.equal(
    serverView(snap('b', { kind: 'pending', attempt: 2, maxAttempts: 5, since }), noRedact).description,
    'reconnecting (2/5)',
  );
});

test("a connecting server with the last run's lists shows them, marked cached, in description and tooltip", () => {
  const pending = { kind: 'pending', attempt: 1, maxAttempts: 1, since: 0 } as const;
  const s = snap('everything', pending, { tools: [tool('everything', 'echo')], cached: true });
  const v = serverView(s, noRedact);
  assert.match(v.description ?? '', /cached: 1 tool$/);
  assert.equal(v.collapsible, 'collapsed');
  assert.match(serverTooltip(s, noRedact), /cached from the last run/);
  assert.deepEqual(
    categoriesOf(s).map((c) => c.kind),
    ['tools'],
  );
  // Without the mark, a connecting server shows no lists.
  assert.equal(serverView({ ...s, cached: undefined }, noRedact).collapsible, 'none');
});

test('the tooltip of a server the host had to be lenient with says what it broke', () => {
  const warning = 'tools/list result without ttlMs/cacheScope: taken as stale';
  const lenient = serverTooltip(snap('s', { ...connected, protocolWarnings: [warning] }), noRedact);
  assert.match(
    lenient,
    /\$\(warning\) Breaks the protocol: tools\/list result without ttlMs\/cacheScope: taken as stale/,
  );
  assert.doesNotMatch(serverTooltip(snap('s', connected), noRedact), /Breaks the protocol/);
});

test('a server left to VS Code: "run by VS Code", no lists, a hover that says why, where its config is and how to take it back', () => {
  const v = serverView(held('alpha', 'editor'), noRedact);
  assert.equal(v.description, 'run by VS Code');
  assert.equal(v.icon, 'vscode');
  assert.equal(v.contextValue, 'mcpServer.editor');
  assert.equal(v.collapsible, 'none');
  assert.match(v.tooltip ?? '', /held: editor/);
  assert.match(v.tooltip ?? '', /Source: ` \/w\/\.mcp\.json `/);
  assert.match(v.tooltip ?? '', /\*\*Take Back from VS Code\*\*/);
  assert.match(v.tooltip ?? '', /MCP: List Servers/);
});

test('a running server VS Code also runs carries .shared (after .remote) so "Leave to VS Code" matches', () => {
  const shared = { ...def('beta'), admission: { run: true as const, sharedWithEditor: true } };
  assert.equal(serverContextValue(snap('beta', connected, { definition: shared })), 'mcpServer.connected.shared');
  const remote = {
    ...def('r', { config: { type: 'http', url: 'https://x.test/mcp' } }),
    admission: { run: true as const, sharedWithEditor: true },
  };
  assert.equal(serverContextValue(snap('r', connected, { definition: remote })), 'mcpServer.connected.remote.shared');
  assert.equal(serverContextValue(snap('u', connected)), 'mcpServer.connected');
});

test('a server waiting for its first use (startServers: onFirstUse) shows its cached lists and the menus of a server not started', () => {
  const waiting = { kind: 'disabled', reason: 'on-first-use', message: 'starts on first use' } as const;
  const s = snap('everything', waiting, { tools: [tool('everything', 'echo')], cached: true });
  const v = serverView(s, noRedact);
  assert.equal(v.description, 'starts on first use · cached: 1 tool');
  assert.equal(v.collapsible, 'collapsed');
  assert.equal(displayKind(s), 'manual');
  assert.deepEqual(
    categoriesOf(s).map((c) => c.kind),
    ['tools'],
  );
  // A server stopped by the user shows no lists, cached or not.
  assert.equal(serverView({ ...s, state: { kind: 'disabled', reason: 'user' } }, noRedact).collapsible, 'none');
});
