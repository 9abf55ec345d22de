import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isAlwaysListed,
  listBytes,
  queryTerms,
  searchModeApplies,
  searchToolDefinitions,
  tokenize,
  ToolIndex,
} from '../../../src/core/gateway/tool-search.js';
import { loadTasks, loadToolCatalog, rankTasks } from '../../../bench/lib/tool-catalog.js';

test('tokenize splits camelCase and snake_case, drops stop words and stems', () => {
  assert.deepEqual(tokenize('readMultipleFiles list_directory_with_sizes'), [
    ...tokenize('read multiple file'),
    ...tokenize('list directory size'),
  ]);
  assert.deepEqual(tokenize('creating created creates'), tokenize('create create create'));
  assert.deepEqual(tokenize('Get the CPU usage of the pods'), ['cpu', 'usag', 'pod']);
  assert.ok(queryTerms('make a folder').includes('directory'));
});

test('on the committed catalogue of real tools the needed tool is in the top 3 for at least 90% of tasks', () => {
  const { tools } = loadToolCatalog();
  const tasks = loadTasks();
  assert.ok(tools.length >= 300, `${tools.length} tools`);
  assert.ok(tasks.length >= 50, `${tasks.length} tasks`);
  for (const t of tasks)
    for (const e of t.expect)
      assert.ok(
        tools.some((x) => x.name === e),
        `task "${t.task}" expects ${e}, which the catalogue does not have`,
      );
  const r = rankTasks(new ToolIndex(tools), tasks);
  assert.ok(r.top3 >= 0.9, `top-3 ${r.top3}; misses: ${JSON.stringify(r.misses)}`);
  assert.ok(r.top1 >= 0.7, `top-1 ${r.top1}`);
});

test('search can be limited to one server, and words no tool has find nothing', () => {
  const { tools } = loadToolCatalog();
  const index = new ToolIndex(tools);
  const hits = index.search('take a screenshot', { server: 'devtools', limit: 5 });
  assert.equal(hits[0]?.name, 'devtools__take_screenshot');
  assert.ok(hits.every((h) => h.name.startsWith('devtools__')));
  assert.deepEqual(index.search('zzyzx qwxv'), []);
});

test('auto mode switches on past the tool count or the schema bytes; an explicit request wins', () => {
  const few = { count: 10, bytes: 5_000 };
  const many = { count: 65, bytes: 30_000 };
  const fat = { count: 3, bytes: 90_000 };
  assert.equal(searchModeApplies({}, few), false);
  assert.equal(searchModeApplies({}, many), true);
  assert.equal(searchModeApplies({}, fat), true);
  assert.equal(searchModeApplies({ maxTools: 100 }, many), false);
  assert.equal(searchModeApplies({ maxSchemaBytes: 100_000 }, fat), false);
  assert.equal(searchModeApplies({}, many, 'full'), false);
  assert.equal(searchModeApplies({ mode: 'off' }, many), false);
  assert.equal(searchModeApplies({ mode: 'on' }, few), true);
  assert.equal(searchModeApplies({ mode: 'off' }, few, 'search'), true);
  assert.equal(isAlwaysListed({ alwaysList: ['fs'] }, 'fs__read', 'fs'), true);
  assert.equal(isAlwaysListed({ alwaysList: ['gh__create_issue'] }, 'gh__create_issue', 'gh'), true);
  assert.equal(isAlwaysListed({ alwaysList: ['gh__create_issue'] }, 'gh__list_issues', 'gh'), false);
});

test('search mode’s three tools are a small fraction of the full list', () => {
  const { tools, servers } = loadToolCatalog();
  const full = listBytes(tools.map((t) => t.definition));
  const search = listBytes(searchToolDefinitions(servers, tools.length));
  assert.ok(search * 50 < full, `${search} vs ${full}`);
});
