/** Gateway tool names as agents rewrite them: Codex keeps [A-Za-z0-9_], Copilot CLI adds `<key>-`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snap } from './snapshots.js';
import { buildCatalog } from '../../../src/core/gateway/catalog.js';
import { agentFold } from '../../../src/core/gateway/agent-names.js';

/** Each name as Codex and as Copilot CLI would call it: all distinct, and each still the agent's own. */
function assertSurvives(names: string[]): void {
  const codex = names.map(agentFold);
  assert.equal(new Set(codex).size, names.length, `Codex would merge: ${codex.join(', ')}`);
  const copilot = names.map((n) => `host-${n}`);
  assert.equal(new Set(copilot).size, names.length);
  for (const n of names) assert.match(n, /^[A-Za-z0-9_-]{1,64}$/);
}

test('two tools of one server that differ only in - and _ stay apart once folded', () => {
  const c = buildCatalog([snap('everything', { tools: ['get-sum', 'get_sum', 'echo'] })]);
  const names = c.tools.map((t) => t.name);
  assert.equal(names[0], 'everything__get-sum');
  assert.equal(names[2], 'everything__echo');
  assert.notEqual(agentFold(names[1]!), 'everything__get_sum');
  assert.match(names[1]!, /^everything__get_sum_[0-9a-f]{8}$/);
  assertSurvives(names);
});

test('servers a-b and a_b: the second server’s tools get names of their own', () => {
  const c = buildCatalog([snap('a-b', { tools: ['x', 'y-z'] }), snap('a_b', { tools: ['x', 'y_z', 'w'] })]);
  const names = c.tools.map((t) => t.name);
  assert.deepEqual(names.slice(0, 2), ['a-b__x', 'a-b__y-z']);
  assert.equal(names[4], 'a_b__w');
  assertSurvives(names);
  assert.deepEqual(
    c.tools.map((t) => `${t.tool.server}/${t.tool.name}`),
    ['a-b/x', 'a-b/y-z', 'a_b/x', 'a_b/y_z', 'a_b/w'],
  );
});

test('deterministic: the same lists give the same names', () => {
  const build = (): string[] =>
    buildCatalog([snap('a.b', { tools: ['t-1', 't.1', 't_1'] }), snap('a-b', { tools: ['t_1'] })]).tools.map(
      (t) => t.name,
    );
  assert.deepEqual(build(), build());
  assertSurvives(build());
});

test('names without collisions are left as they were', () => {
  const c = buildCatalog([snap('everything', { tools: ['get-sum', 'echo'] }), snap('git', { tools: ['log'] })]);
  assert.deepEqual(
    c.tools.map((t) => t.name),
    ['everything__get-sum', 'everything__echo', 'git__log'],
  );
});
