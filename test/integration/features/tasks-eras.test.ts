/**
 * Task-augmented tool calls on both eras against one fixture (modern-server.mjs): the tasks
 * extension of 2026-07-28 (modern-tasks.ts; stdio and Streamable HTTP) and 2025-11-25 tasks (stdio
 * pinned to legacy). Either way the call reports its status through the same host API, is listed
 * while it runs, ends with its result, and Cancel ends it on the server too.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpHost } from '../../../src/core/host.js';
import type { ElicitationPort } from '../../../src/core/host-api.js';
import type { RunningTask } from '../../../src/core/features/index.js';
import { HostError } from '../../../src/core/errors.js';
import { eraHosts } from '../connection/era-hosts.js';
import { def, textOf } from '../connection/helpers.js';

const asked: string[] = [];
const elicitation: ElicitationPort = {
  elicit: (_s, req) => {
    asked.push(req.message);
    return Promise.resolve(
      req.mode === 'form' ? { action: 'accept', content: { format: 'pdf' } } : { action: 'accept' },
    );
  },
};

const { newHost, http, stdio, connected } = eraHosts('tasks-eras', { elicitation });

/** Runs as a task with statuses and a listing; then Cancel from the running-tasks list ends another. */
async function tasksWork(host: McpHost, name: string): Promise<void> {
  const statuses: RunningTask[] = [];
  let listed = 0;
  const sub = host.features.tasks.onDidChange(() => (listed = Math.max(listed, host.features.tasks.list().length)));
  const r = await host.callTool(name, 'report', {}, { onTaskStatus: (t) => statuses.push(t) });
  sub.dispose();
  assert.equal(textOf(r), 'report ready');
  assert.equal(statuses[0]!.status, 'working');
  assert.ok(statuses.every((s) => s.taskId === statuses[0]!.taskId && s.tool === 'report' && s.server === name));
  assert.ok(
    statuses.some((s) => /^step \d$/.test(s.statusMessage ?? '')),
    `status messages: ${JSON.stringify(statuses)}`,
  );
  assert.equal(statuses.at(-1)!.status, 'completed');
  assert.equal(listed, 1);
  assert.equal(host.features.tasks.list().length, 0);

  let created!: (id: string) => void;
  const taskId = new Promise<string>((resolve) => (created = resolve));
  const running = host.callTool(name, 'endless', {}, { onTaskStatus: (t) => created(t.taskId) });
  // Watched before the cancel is sent: the call may end before cancel() resolves, and a rejection
  // nobody holds yet fails the test as unhandled (seen on a loaded machine, over HTTP).
  const ended = assert.rejects(
    running,
    (err: unknown) => err instanceof HostError && err.code === 'cancelled' && /endless was cancelled/.test(err.message),
  );
  assert.equal(await host.features.tasks.cancel(await taskId), true);
  await ended;
  assert.equal(host.features.tasks.list().length, 0);
}

describe('tasks on both eras', () => {
  test('modern stdio: the tasks extension (resultType task, tasks/get, tasks/cancel)', async () => {
    const { host, log } = newHost();
    host.setDefinitions([stdio('local')]);
    await connected(host, 'local', '2026-07-28');
    await tasksWork(host, 'local');
    assert.match(log.lines.join('\n'), /runs as task \w+ \(tasks extension\)/);
  });

  test('modern Streamable HTTP: the tasks extension, a question mid-task answered with tasks/update', async () => {
    const s = await http();
    const { host } = newHost();
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    await tasksWork(host, 'remote');
    const statuses: string[] = [];
    const r = await host.callTool('remote', 'report', { ask: true }, { onTaskStatus: (t) => statuses.push(t.status) });
    assert.equal(textOf(r), 'report ready as pdf');
    assert.ok(statuses.includes('input_required'), JSON.stringify(statuses));
    assert.equal(asked.filter((m) => m === 'Which format?').length, 1, 'asked once, however often it was polled');
  });

  test('legacy stdio (2025-11-25 tasks): the same API', async () => {
    const { host, log } = newHost({ eraNegotiation: 'legacy' });
    host.setDefinitions([stdio('old')]);
    await connected(host, 'old', '2025-11-25');
    await tasksWork(host, 'old');
    assert.doesNotMatch(log.lines.join('\n'), /tasks extension/);
  });

  test('aborting the call (the notification’s Cancel) cancels a modern task on the server', async () => {
    const { host, log } = newHost();
    host.setDefinitions([stdio('abort')]);
    await connected(host, 'abort', '2026-07-28');
    const abort = new AbortController();
    const running = host.callTool('abort', 'endless', {}, { signal: abort.signal, onTaskStatus: () => abort.abort() });
    await assert.rejects(running, (err: unknown) => err instanceof HostError && err.code === 'cancelled');
    await log.nextLine(/task \w+ \(endless\) cancelled/);
    assert.equal(host.features.tasks.list().length, 0);
  });
});
