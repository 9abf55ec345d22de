// A gateway's tools grouped under their upstream servers (the tree's rows), and the team gateway's row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoriesOf, serverView } from '../../../src/extension/tree/model.js';
import {
  teamGatewayRow,
  ungroupedTools,
  upstreamGroups,
  upstreamToolView,
  upstreamView,
} from '../../../src/extension/tree/upstream.js';
import { connected, def, snap, tool } from './fixtures.js';

const via = (upstream: string, name: string) => ({
  ...tool('acme', `${upstream}__${name}`),
  upstream: { server: upstream, tool: name },
});

test('tools naming their upstream are grouped under it, in the gateway’s order; the rest stay in Tools', () => {
  const s = snap('acme', connected, {
    tools: [via('alpha', 'echo'), via('beta', 'echo'), via('alpha', 'add'), tool('acme', 'search_tools')],
  });
  const groups = upstreamGroups(s);
  assert.deepEqual(
    groups.map((g) => [g.name, g.tools.map((t) => t.name)]),
    [
      ['alpha', ['alpha__echo', 'alpha__add']],
      ['beta', ['beta__echo']],
    ],
  );
  assert.deepEqual(
    ungroupedTools(s).map((t) => t.name),
    ['search_tools'],
  );
  assert.deepEqual(categoriesOf(s), [{ kind: 'tools', count: 1 }]);
  assert.equal(upstreamView(groups[0]!).label, 'alpha');
  assert.equal(upstreamView(groups[0]!).description, '2 tools');
  // The upstream's own name on the row, the gateway's tool in the call.
  const row = upstreamToolView(via('beta', 'echo'));
  assert.equal(row.label, 'echo');
  assert.deepEqual(row.command?.arguments, [{ server: 'acme', tool: 'beta__echo' }]);
});

test('a server without upstream marks is unchanged: no groups, every tool in Tools', () => {
  const s = snap('plain', connected, { tools: [tool('plain', 'echo')] });
  assert.deepEqual(upstreamGroups(s), []);
  assert.deepEqual(categoriesOf(s), [{ kind: 'tools', count: 1 }]);
});

test('the team gateway’s row shows its display name and says what it is', () => {
  const s = snap('acme-tools', connected, {
    tools: [via('alpha', 'echo')],
    definition: {
      ...def('acme-tools', { config: { type: 'http', url: 'https://mcp.example.com/mcp' } }),
      teamGateway: { displayName: 'Acme Tools' },
    },
  });
  const v = teamGatewayRow(
    serverView(s, (t) => t),
    s,
  );
  assert.equal(v.label, 'Acme Tools');
  assert.equal(v.description, 'team gateway · 1 tool');
  assert.match(v.tooltip ?? '', /Team gateway `acme-tools`/);
  const other = snap('x', connected);
  assert.deepEqual(
    teamGatewayRow(
      serverView(other, (t) => t),
      other,
    ),
    serverView(other, (t) => t),
  );
});
