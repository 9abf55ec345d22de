import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallHistory } from '../../../src/core/calls/call-history.js';
import { historyJson } from '../../../src/core/inspector/history.js';

test('historyJson: oldest first, ISO times, outcome, duration, command line, secret arguments redacted', () => {
  const h = new CallHistory();
  const a = h.add('calc', 'add', { a: 1, b: 2 }, Date.UTC(2026, 0, 1));
  h.finish(a, 'ok', 12);
  h.add('gh', 'search', { query: 'x', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123' }, Date.UTC(2026, 0, 2));
  const json = historyJson(h.list());
  const doc = JSON.parse(json) as { calls: Record<string, unknown>[] };
  assert.equal(doc.calls.length, 2);
  assert.deepEqual(doc.calls[0], {
    server: 'calc',
    tool: 'add',
    arguments: { a: 1, b: 2 },
    startedAt: '2026-01-01T00:00:00.000Z',
    outcome: 'ok',
    durationMs: 12,
    commandLine: `mcp-host call calc add --args '{"a":1,"b":2}'`,
  });
  assert.equal(doc.calls[1]!.outcome, 'running');
  assert.ok(!json.includes('ghp_abcdefghijklmnopqrstuvwxyz0123'));
});
