import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRefresh, type TreeShape } from '../../../src/extension/tree/refresh-plan.js';

function grouped(groups: Record<string, string[]>, problems: string[] = []): TreeShape {
  return { top: [...Object.keys(groups), ...problems], groups, servers: Object.values(groups).flat(), problems };
}

function flat(servers: string[], problems: string[] = []): TreeShape {
  return { top: [...servers, ...problems], groups: {}, servers, problems };
}

const twoGroups = grouped({ 'group/project': ['server/a'], 'group/workspace': ['server/b'] });

test('the root is refreshed only when the top-level rows change', () => {
  assert.deepEqual(planRefresh(flat([]), twoGroups, undefined), { kind: 'root' });
  assert.deepEqual(planRefresh(twoGroups, flat(['server/a']), undefined), { kind: 'root' });
  assert.deepEqual(planRefresh(flat(['server/a']), flat(['server/a'], ['problem/x']), undefined), { kind: 'root' });
});

test('a reload that changes nothing refreshes the rows, not the root (the groups VS Code is expanding stay known)', () => {
  assert.deepEqual(planRefresh(twoGroups, twoGroups, undefined), { kind: 'rows', ids: ['server/a', 'server/b'] });
});

test('one server changing refreshes that server row only', () => {
  assert.deepEqual(planRefresh(twoGroups, twoGroups, 'server/b'), { kind: 'rows', ids: ['server/b'] });
});

test('a server added to an existing group refreshes that group, not the root', () => {
  const after = grouped({ 'group/project': ['server/a', 'server/c'], 'group/workspace': ['server/b'] });
  assert.deepEqual(planRefresh(twoGroups, after, undefined), { kind: 'rows', ids: ['group/project'] });
  assert.deepEqual(planRefresh(twoGroups, after, 'server/b'), { kind: 'rows', ids: ['group/project', 'server/b'] });
  assert.deepEqual(planRefresh(twoGroups, after, 'server/c'), { kind: 'rows', ids: ['group/project'] });
});
