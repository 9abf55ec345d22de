import { test } from 'node:test';
import assert from 'node:assert/strict';
import { needsRoot, planRefresh, type RefreshPlan, type TreeShape } from '../../../src/extension/tree/refresh-plan.js';

function grouped(groups: Record<string, string[]>, problems: string[] = []): TreeShape {
  return { top: [...Object.keys(groups), ...problems], groups, servers: Object.values(groups).flat(), problems };
}

function flat(servers: string[], problems: string[] = []): TreeShape {
  return { top: [...servers, ...problems], groups: {}, servers, problems };
}

/** The workbench was given the rows of `before`. */
const plan = (before: TreeShape, after: TreeShape, changed: string | undefined): RefreshPlan =>
  planRefresh(before, after, changed, before.top);

const twoGroups = grouped({ 'group/project': ['server/a'], 'group/workspace': ['server/b'] });

test('the root is refreshed only when the top-level rows change', () => {
  assert.deepEqual(plan(flat([]), twoGroups, undefined), { kind: 'root' });
  assert.deepEqual(plan(twoGroups, flat(['server/a']), undefined), { kind: 'root' });
  assert.deepEqual(plan(flat(['server/a']), flat(['server/a'], ['problem/x']), undefined), { kind: 'root' });
});

test('a reload that changes nothing refreshes the rows, not the root (the groups VS Code is expanding stay known)', () => {
  assert.deepEqual(plan(twoGroups, twoGroups, undefined), { kind: 'rows', ids: ['server/a', 'server/b'] });
});

test('one server changing refreshes that server row only', () => {
  assert.deepEqual(plan(twoGroups, twoGroups, 'server/b'), { kind: 'rows', ids: ['server/b'] });
});

test('a server added to an existing group refreshes that group, not the root', () => {
  const after = grouped({ 'group/project': ['server/a', 'server/c'], 'group/workspace': ['server/b'] });
  assert.deepEqual(plan(twoGroups, after, undefined), { kind: 'rows', ids: ['group/project'] });
  assert.deepEqual(plan(twoGroups, after, 'server/b'), { kind: 'rows', ids: ['group/project', 'server/b'] });
  assert.deepEqual(plan(twoGroups, after, 'server/c'), { kind: 'rows', ids: ['group/project'] });
});

test('a top-level change the workbench was already given refreshes rows, not the root', () => {
  // The first root answer came after the config loaded: it already showed both groups.
  const shown = twoGroups.top;
  assert.deepEqual(planRefresh(flat([]), twoGroups, undefined, shown), {
    kind: 'rows',
    ids: ['group/project', 'group/workspace'],
  });
  // The workbench never asked for the root: it gets the rows of now when it does.
  assert.deepEqual(planRefresh(flat([]), twoGroups, 'server/a', undefined), {
    kind: 'rows',
    ids: ['group/project', 'group/workspace'],
  });
  // It was given the old rows: the root must be refreshed.
  assert.deepEqual(planRefresh(flat([]), twoGroups, undefined, []), { kind: 'root' });
});

test('needsRoot: only when the rows the workbench was given differ from the rows of now', () => {
  assert.equal(needsRoot(undefined, twoGroups.top), false);
  assert.equal(needsRoot(twoGroups.top, twoGroups.top), false);
  assert.equal(needsRoot(['server/a'], twoGroups.top), true);
  assert.equal(needsRoot(['group/workspace', 'group/project'], twoGroups.top), true);
});
