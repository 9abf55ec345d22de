import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  COMPLETE_RESULTS,
  PARTIAL_RESULTS,
  markdownTable,
  resultsFile,
  withBenchTable,
  type Results,
} from '../../../bench/lib/results.js';
import { NOT_YET_IN_RESULTS, suites } from '../../../bench/suites.js';

describe('benchmark results', () => {
  test('only a complete full-size run writes bench/results.json', () => {
    assert.deepEqual(resultsFile({ quick: false, only: undefined, failedGroups: 0 }), {
      path: COMPLETE_RESULTS,
      complete: true,
    });
    assert.equal(resultsFile({ quick: true, only: undefined, failedGroups: 0 }).path, PARTIAL_RESULTS);
    assert.equal(resultsFile({ quick: false, only: new Set(['ide']), failedGroups: 0 }).path, PARTIAL_RESULTS);
    assert.equal(resultsFile({ quick: false, only: undefined, failedGroups: 1 }).path, PARTIAL_RESULTS);
  });

  test('the committed bench/results.json is one complete run: every group, date, Node version and cores', () => {
    const results = JSON.parse(readFileSync(COMPLETE_RESULTS, 'utf8')) as {
      date: string;
      node: string;
      cpus: number;
      complete: boolean;
      figures: { group: string }[];
    };
    assert.equal(results.complete, true);
    assert.ok(!Number.isNaN(Date.parse(results.date)), `date ${results.date}`);
    assert.match(results.node, /^v\d+\./);
    assert.ok(results.cpus >= 1);
    const groups = new Set(results.figures.map((f) => f.group));
    const expected = suites.map(([name]) => name).filter((name) => !NOT_YET_IN_RESULTS.includes(name));
    assert.deepEqual([...groups].sort(), expected.sort());
    for (const name of NOT_YET_IN_RESULTS)
      assert.ok(!groups.has(name), `${name} is in the run: empty NOT_YET_IN_RESULTS`);
  });
});

test("bench/README.md's benchmark table is the one generated from bench/results.json", () => {
  const results = JSON.parse(readFileSync(COMPLETE_RESULTS, 'utf8')) as Results;
  const readme = readFileSync('bench/README.md', 'utf8');
  assert.equal(withBenchTable(readme, results), readme, 'run npm run bench (a complete run) to regenerate it');
  assert.ok(readme.includes(markdownTable(results)));
});
