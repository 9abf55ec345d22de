/**
 * The client features of 2025-11-25 against a real server-everything over stdio: the tools its
 * client-capability gates unlock, logging, sampling (fake model port, real consent logic), tasks
 * both ways, completions, resource subscriptions. Only the model and the user are fakes.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { GetTaskResultSchema } from '@modelcontextprotocol/core';
import type { ElicitationPort, HostOptions } from '../../../src/core/host-api.js';
import { HostError } from '../../../src/core/errors.js';
import { completeArgument } from '../../../src/core/features/completions.js';
import { NO_MODEL, withSamplingConsent, type ConsentAnswer } from '../../../src/core/features/sampling.js';
import type { RunningTask, ServerLogMessage } from '../../../src/core/features/index.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { EVERYTHING, MemoryLogger, def, tempDir, textOf, waitFor } from '../connection/helpers.js';

const dir = tempDir('features');
const hosts: McpHost[] = [];

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

const everything = () => def('everything', { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] });

function newHost(o: Partial<HostOptions> = {}): { host: McpHost; log: MemoryLogger } {
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: dir, ...o });
  hosts.push(host);
  return { host, log };
}

async function connected(host: McpHost): Promise<void> {
  host.setDefinitions([everything()]);
  await waitFor(host, 'everything', (s) => s.state.kind === 'connected');
}

const names = (host: McpHost) =>
  host
    .server('everything')!
    .tools.map((t) => t.name)
    .sort();

const acceptAll: ElicitationPort = {
  elicit: (_s, req) =>
    Promise.resolve(
      req.mode === 'form'
        ? { action: 'accept', content: { name: 'Ada', interpretation: 'technical' } }
        : { action: 'accept' },
    ),
};

const fakeModel = (seen: CreateMessageRequestParams[]) => ({
  createMessage(_server: string, p: CreateMessageRequestParams): Promise<CreateMessageResult> {
    seen.push(p);
    return Promise.resolve({
      role: 'assistant',
      model: 'fake-model',
      stopReason: 'endTurn',
      content: { type: 'text', text: `echo: ${p.messages.length} messages` },
    });
  },
});

describe('server-everything tools follow the declared capabilities', () => {
  test('without roots, elicitation or sampling but with tasks: the 12 base tools and the research task', async () => {
    const { host } = newHost();
    await connected(host);
    assert.equal(names(host).length, 13);
    assert.ok(names(host).includes('simulate-research-query'));
    assert.equal(
      host.server('everything')!.tools.find((t) => t.name === 'simulate-research-query')!.taskSupport,
      'required',
    );
  });

  test('roots and elicitation (what the CLI declares) add four tools, sampling three more', async () => {
    const roots = { roots: () => [{ uri: 'file:///tmp' }], onDidChange: () => ({ dispose() {} }) };
    const cli = newHost({ roots, elicitation: acceptAll });
    await connected(cli.host);
    assert.deepEqual(
      names(cli.host).filter((n) => /roots|elicitation/.test(n)),
      ['get-roots-list', 'trigger-elicitation-request', 'trigger-elicitation-request-async', 'trigger-url-elicitation'],
    );
    assert.equal(names(cli.host).length, 17);
    const editor = newHost({ roots, elicitation: acceptAll, features: { sampling: fakeModel([]) } });
    await connected(editor.host);
    assert.equal(names(editor.host).length, 19);
    assert.deepEqual(
      names(editor.host).filter((n) => !names(cli.host).includes(n)),
      ['trigger-sampling-request', 'trigger-sampling-request-async'],
    );
  });
});

describe('logging', () => {
  test('notifications/message reaches the server log at its level and the onServerLog hook; setLevel is sent', async () => {
    const got: ServerLogMessage[] = [];
    let first!: () => void;
    const arrived = new Promise<void>((r) => (first = r));
    const serverLogs = new MemoryLogger();
    const { host } = newHost({
      serverLogger: () => serverLogs,
      features: { logLevel: () => 'debug', onServerLog: (_s, m) => (got.push(m), first()) },
    });
    await connected(host);
    await host.callTool('everything', 'toggle-simulated-logging', {});
    await arrived;
    const m = got[0]!;
    // server-everything picks the level at random; its alert text is spelt "Alert level-message".
    assert.match(String(m.data), /^[A-Z][a-z]+[- ]level[- ]message/);
    const expected = {
      debug: 'debug',
      info: 'info',
      notice: 'info',
      warning: 'warn',
      error: 'error',
      critical: 'error',
      alert: 'error',
      emergency: 'error',
    }[m.level];
    assert.ok(
      serverLogs.lines.some((l) => l.startsWith(`${expected} `) && l.includes(String(m.data))),
      serverLogs.lines.join('\n'),
    );
    assert.ok(
      serverLogs.lines.some((l) => l === 'debug log level set to debug'),
      serverLogs.lines.join('\n'),
    );
    await host.callTool('everything', 'toggle-simulated-logging', {});
  });
});

describe('sampling', () => {
  test('asks first; "once" serves one request, "always" is remembered, "deny" is a clear error to the server', async () => {
    const seen: CreateMessageRequestParams[] = [];
    const answers: ConsentAnswer[] = ['once', 'deny', 'always'];
    const asked: string[] = [];
    const always = new Set<string>();
    const sampling = withSamplingConsent(
      fakeModel(seen),
      {
        isAlwaysAllowed: (s) => always.has(s),
        allowAlways: (s) => (always.add(s), Promise.resolve()),
        revoke: (s) => (always.delete(s), Promise.resolve()),
      },
      { ask: (_s, summary) => (asked.push(summary), Promise.resolve(answers.shift())) },
    );
    const { host } = newHost({ features: { sampling } });
    await connected(host);
    const call = () =>
      host.callTool('everything', 'trigger-sampling-request', { prompt: 'hello there', maxTokens: 42 });
    assert.match(textOf(await call()), /echo: 1 messages/);
    assert.match(asked[0]!, /hello there/);
    assert.match(asked[0]!, /up to 42 tokens/);
    const denied = await call();
    assert.equal(denied.isError, true);
    assert.match(textOf(denied), /declined the sampling request/);
    await call();
    await call();
    assert.equal(asked.length, 3, 'always is not asked again');
    assert.equal(seen.length, 3);
    assert.equal(seen[0]!.maxTokens, 42);
    assert.ok(always.has('everything'));
  });

  test('no model: the server gets a clear error at once, not a hang', async () => {
    const sampling = {
      createMessage: () =>
        Promise.reject(
          Object.assign(new Error('No language model is available to serve the request.'), { code: NO_MODEL }),
        ),
    };
    const { host } = newHost({ features: { sampling } });
    await connected(host);
    const r = await host.callTool('everything', 'trigger-sampling-request', { prompt: 'x' }, { timeoutMs: 20_000 });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /No language model is available/);
  });
});

describe('tasks', () => {
  test('simulate-research-query runs as a task: statuses reported, listed while running, result via tasks/result', async () => {
    const { host } = newHost();
    await connected(host);
    const statuses: RunningTask[] = [];
    let listed = 0;
    const sub = host.features.tasks.onDidChange(() => (listed = Math.max(listed, host.features.tasks.list().length)));
    const r = await host.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'tides' },
      { onTaskStatus: (t) => statuses.push(t) },
    );
    sub.dispose();
    assert.match(textOf(r), /Research Report: tides/);
    assert.equal(statuses[0]!.status, 'working');
    assert.ok(statuses.every((s) => s.taskId === statuses[0]!.taskId));
    assert.equal(listed, 1);
    assert.equal(host.features.tasks.list().length, 0);
  });

  test('Cancel from the running-tasks list sends tasks/cancel: the server marks it cancelled, the call ends', async () => {
    const { host } = newHost();
    await connected(host);
    let created!: (id: string) => void;
    const taskId = new Promise<string>((r) => (created = r));
    const p = host.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'cancel me' },
      { onTaskStatus: (t) => created(t.taskId) },
    );
    const id = await taskId;
    assert.equal(await host.features.tasks.cancel(id), true);
    const onServer = await host.withClient('everything', 'tasks/get', (c) =>
      c.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema),
    );
    assert.equal(onServer.status, 'cancelled');
    // A cancellation, not a server failure: front ends show it as the user's act.
    await assert.rejects(
      p,
      (err: unknown) =>
        err instanceof HostError &&
        err.code === 'cancelled' &&
        /simulate-research-query was cancelled/.test(err.message),
    );
    assert.equal(host.features.tasks.list().length, 0);
  });

  test("aborting the call (the notification's Cancel) also cancels the task on the server", async () => {
    const { host, log } = newHost();
    await connected(host);
    const abort = new AbortController();
    let id = '';
    const p = host.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'abort me' },
      { signal: abort.signal, onTaskStatus: (t) => ((id = t.taskId), abort.abort()) },
    );
    await assert.rejects(p, /cancel/i);
    const onServer = await host.withClient('everything', 'tasks/get', (c) =>
      c.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema),
    );
    assert.equal(onServer.status, 'cancelled', log.lines.join('\n'));
  });

  test('a server asking for elicitation as a task gets a task and then our answer through tasks/result', async () => {
    const { host } = newHost({ elicitation: acceptAll });
    await connected(host);
    const r = await host.callTool('everything', 'trigger-elicitation-request-async', {});
    assert.match(textOf(r), /Task created/);
    assert.match(textOf(r), /Ada/);
  });
});

describe('completions and subscriptions', () => {
  test('prompt arguments complete with context.arguments; template variables complete', async () => {
    const { host } = newHost();
    await connected(host);
    const dept = await host.withClient('everything', 'complete', (c) =>
      completeArgument(
        c,
        { type: 'ref/prompt', name: 'completable-prompt' },
        { name: 'department', value: 'S' },
        undefined,
      ),
    );
    assert.deepEqual(dept.values, ['Sales', 'Support']);
    const people = await host.withClient('everything', 'complete', (c) =>
      completeArgument(
        c,
        { type: 'ref/prompt', name: 'completable-prompt' },
        { name: 'name', value: '' },
        { department: 'Sales' },
      ),
    );
    assert.deepEqual(people.values, ['David', 'Eve', 'Frank']);
    const ids = await host.withClient('everything', 'complete', (c) =>
      completeArgument(
        c,
        { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        { name: 'resourceId', value: '3' },
        undefined,
      ),
    );
    assert.deepEqual(ids.values, ['3']);
  });

  test('a subscribed resource hears notifications/resources/updated (one subscribe per URI, dropped on dispose)', async () => {
    const { host } = newHost();
    await connected(host);
    const uri = host.server('everything')!.resources[0]!.uri;
    let updated!: (u: string) => void;
    const heard = new Promise<string>((r) => (updated = r));
    const send = (m: 'subscribe' | 'unsubscribe') =>
      host.withClient(
        'everything',
        m,
        async (c) => (await (m === 'subscribe' ? c.subscribeResource({ uri }) : c.unsubscribeResource({ uri })), true),
      );
    const sub = await host.features.subscriptions.subscribe('everything', uri, (u) => updated(u), send);
    assert.equal(sub.subscribed, true);
    await host.callTool('everything', 'toggle-subscriber-updates', {});
    assert.equal(await heard, uri);
    sub.dispose();
    await host.callTool('everything', 'toggle-subscriber-updates', {});
  });
});
