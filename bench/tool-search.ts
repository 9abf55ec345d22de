/**
 * Tool search mode on a catalogue of real tool lists (324 tools of 19 npm servers, captured by
 * scripts/capture-tool-catalog.mjs) and a fixed set of tasks: how often the tool a task needs is
 * the first hit and among the first three, and how many bytes of context the agent's tool list
 * takes in full against search mode's three tools. Deterministic: no timing is involved.
 */
import { searchToolDefinitions, listBytes, ToolIndex } from '../src/core/gateway/tool-search.js';
import { figure, type Figure } from './lib/stats.js';
import { loadTasks, loadToolCatalog, rankTasks } from './lib/tool-catalog.js';

export async function toolSearch(): Promise<Figure[]> {
  const catalog = loadToolCatalog();
  const tasks = loadTasks();
  const index = new ToolIndex(catalog.tools);
  const t0 = performance.now();
  const r = rankTasks(index, tasks);
  const perQuery = (performance.now() - t0) / tasks.length;
  for (const m of r.misses) console.log(`[tool-search] miss: "${m.task}" → ${m.got.join(', ')}`);
  const full = listBytes(catalog.tools.map((t) => t.definition));
  const search = listBytes(searchToolDefinitions(catalog.servers, catalog.tools.length));
  const what = `${tasks.length} tasks, ${catalog.tools.length} tools`;
  return Promise.resolve([
    figure('tool-search', `top-1 hit rate (${what})`, Math.round(r.top1 * 1000) / 10, '%'),
    figure('tool-search', `top-3 hit rate (${what})`, Math.round(r.top3 * 1000) / 10, '%', undefined, {
      text: '≥ 90 %',
      ok: (v) => v >= 90,
    }),
    figure('tool-search', 'tools/list in search mode', search, 'bytes', { name: 'full list', value: full }),
    figure('tool-search', 'one search (BM25 over the catalogue)', Math.round(perQuery * 1000) / 1000, 'ms'),
  ]);
}
