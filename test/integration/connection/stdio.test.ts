/**
 * stdio connections against real processes: server-everything and the misbehaving fixture.
 * Every test stops what it started; pids are checked, grandchildren included.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost, HostError } from '../../../src/core/host.js';
import {
  EVERYTHING,
  MemoryLogger,
  def,
  isAlive,
  killPids,
  recordedPids,
  stdioDef,
  tempDir,
  textOf,
} from './helpers.js';
import { pollUntil } from '../../support/wait.js';

const dir = tempDir('stdio');
const leftovers: number[] = [];

function newHost(env: Record<string, string> = {}): { host: McpHost; log: MemoryLogger } {
  const log = new MemoryLogger();
  return { host: createHost({ logger: log, blobDir: dir, env: { ...env } }), log };
}

after(() => {
  killPids(leftovers);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('server-everything over stdio', () => {
  let host: McpHost;
  before(async () => {
    host = newHost().host;
    // Not in the safe default set: must not leak into the server's environment.
    process.env.MCP_HOST_TEST_PRIVATE = 'do-not-pass';
    host.setDefinitions([
      def('everything', {
        type: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { FROM_CONFIG: 'yes' },
        cwd: dir,
      }),
    ]);
    await host.whenSettled();
  });
  after(() => host.dispose());

  test('connects and lists tools, resources and prompts', () => {
    const s = host.server('everything')!;
    assert.equal(s.state.kind, 'connected', JSON.stringify(s.state));
    assert.ok(s.tools.some((t) => t.qualifiedName === 'mcp__everything__echo'));
    assert.ok(s.resources.length > 0 || s.resourceTemplates.length > 0);
    assert.ok(s.prompts.some((p) => p.name === 'simple-prompt'));
  });

  test('calls a tool, reads a resource, gets a prompt', async () => {
    const r = await host.callTool('everything', 'echo', { message: 'hi' });
    assert.equal(r.isError, false);
    assert.match(textOf(r), /hi/);
    const s = host.server('everything')!;
    const uri = s.resources[0]?.uri;
    if (uri) {
      const res = await host.readResource('everything', uri);
      assert.ok(res.contents.length > 0);
    }
    const p = await host.getPrompt('everything', 'simple-prompt', {});
    assert.ok(p.messages.length > 0);
  });

  test('environment is the safe defaults plus the entry env', async () => {
    const env = JSON.parse(textOf(await host.callTool('everything', 'get-env', {}))) as Record<string, string>;
    assert.equal(env.FROM_CONFIG, 'yes');
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.MCP_HOST_TEST_PRIVATE, undefined);
    delete process.env.MCP_HOST_TEST_PRIVATE;
  });

  test('progress reaches the caller', async () => {
    const seen: number[] = [];
    const r = await host.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 1, steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    assert.equal(r.isError, false);
    assert.ok(seen.length >= 2, `progress events: ${seen.join(',')}`);
  });

  test('invalid arguments are refused before the call, unknown tools name the known ones', async () => {
    await assert.rejects(host.callTool('everything', 'echo', {}), (e: HostError) => e.code === 'invalid-arguments');
    await assert.rejects(
      host.callTool('everything', 'nope', {}),
      (e: HostError) => e.code === 'unknown-tool' && /echo/.test(e.message),
    );
    await assert.rejects(
      host.callTool('missing', 'echo', {}),
      (e: HostError) => e.code === 'unknown-server' && /everything/.test(e.message),
    );
  });

  test('stop leaves no process behind', async () => {
    const pid = host.pid('everything')!;
    assert.ok(pid && isAlive(pid));
    await host.stop('everything');
    assert.equal(isAlive(pid), false);
    assert.equal(host.server('everything')!.state.kind, 'disabled');
    await assert.rejects(
      host.callTool('everything', 'echo', { message: 'x' }),
      (e: HostError) => e.code === 'disabled',
    );
  });
});

describe('misbehaving stdio servers', () => {
  test('garbage on stdout is logged and skipped (and cwd is honoured)', async () => {
    const { host, log } = newHost();
    try {
      host.setDefinitions([stdioDef('garbage', ['--garbage'], { cwd: dir })]);
      await host.whenSettled();
      assert.equal(host.server('garbage')!.state.kind, 'connected');
      const r = await host.callTool('garbage', 'echo', { text: 'still fine' });
      assert.equal(textOf(r), 'echo: still fine');
      assert.ok(
        log.lines.some((l) => l.includes('not JSON-RPC') && l.includes('Welcome')),
        'garbage was logged',
      );
      assert.equal(
        fs.realpathSync(textOf(await host.callTool('garbage', 'cwd', {}))),
        fs.realpathSync(dir),
        'cwd honoured',
      );
    } finally {
      await host.dispose();
    }
  });

  test('a server that exits mid-call: the call rejects promptly saying so, the next call reconnects', async () => {
    const { host } = newHost();
    try {
      host.setDefinitions([stdioDef('crashy')]);
      await host.whenSettled();
      const pid = host.pid('crashy')!;
      let diedAt = 0;
      const poll = setInterval(() => {
        if (!diedAt && !isAlive(pid)) diedAt = Date.now();
      }, 5);
      const err = await host.callTool('crashy', 'crash', { code: 3 }, { timeoutMs: 120_000 }).then(
        () => undefined,
        (e: unknown) => e as HostError,
      );
      const rejectedAt = Date.now();
      clearInterval(poll);
      // On a loaded machine the rejection can arrive before the 5 ms poll runs again: the
      // process is gone by now, so it died no later than the rejection.
      if (!diedAt && !isAlive(pid)) diedAt = rejectedAt;
      assert.ok(err instanceof HostError, `expected a HostError, got ${String(err)}`);
      assert.equal(err.code, 'server-exited');
      assert.match(err.message, /exited with code 3/);
      assert.match(err.message, /about to crash/);
      // Promptly means on the exit, not on the call's 120 s timeout: a bound far below the timeout
      // and far above a loaded machine's scheduling delay (1,017 ms was seen at load 45).
      assert.ok(
        diedAt > 0 && rejectedAt - diedAt < 20_000,
        `rejected ${rejectedAt - diedAt} ms after the process died`,
      );
      const s = host.server('crashy')!;
      assert.equal(s.state.kind, 'failed');
      assert.equal(s.tools.length, 0, 'cached lists dropped');
      // Lazy reconnect on next use.
      const r = await host.callTool('crashy', 'echo', { text: 'back' });
      assert.equal(textOf(r), 'echo: back');
      assert.notEqual(host.pid('crashy'), pid);
    } finally {
      await host.dispose();
    }
  });

  test('a hung call times out with a timeout error; the server keeps serving', async () => {
    const { host } = newHost({ MCP_TOOL_TIMEOUT: '1500' });
    const rec = path.join(dir, 'hung.rec');
    try {
      host.setDefinitions([stdioDef('hung', ['--record', rec])]);
      await host.whenSettled();
      await assert.rejects(
        host.callTool('hung', 'hang', {}),
        (e: HostError) => e.code === 'request-timeout' && /timed out after 1500 ms/.test(e.message),
      );
      await assert.rejects(
        host.callTool('hung', 'hang', {}, { timeoutMs: 300 }),
        (e: HostError) => e.code === 'request-timeout' && /300 ms/.test(e.message),
      );
      const ac = new AbortController();
      const p = host.callTool('hung', 'hang', {}, { signal: ac.signal });
      setTimeout(() => ac.abort(), 100);
      await assert.rejects(p, (e: HostError) => e.code === 'cancelled');
      // Timeouts and the abort each sent notifications/cancelled to the server.
      const cancelled = (): number =>
        fs
          .readFileSync(rec, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('cancelled')).length;
      await pollUntil(() => cancelled() >= 3, 60_000);
      assert.equal(cancelled(), 3);
      assert.equal(textOf(await host.callTool('hung', 'echo', { text: 'ok' })), 'echo: ok');
    } finally {
      await host.dispose();
    }
  });

  test('stop kills the whole tree: grandchildren that ignore SIGINT/SIGTERM, also one outside the group', async () => {
    const { host } = newHost();
    const pids: number[] = [];
    try {
      host.setDefinitions([stdioDef('tree', ['--ignore-signals'])]);
      await host.whenSettled();
      pids.push(host.pid('tree')!);
      const r = await host.callTool('tree', 'spawn_grandchildren', {});
      pids.push(...(JSON.parse(textOf(r)) as number[]));
      leftovers.push(...pids);
      assert.equal(pids.length, 3);
      for (const pid of pids) assert.ok(isAlive(pid), `pid ${pid} alive before stop`);
      await host.stop('tree');
      for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} left behind`);
    } finally {
      await host.dispose();
    }
  });

  test('restart and dispose leave no process behind', async () => {
    const { host } = newHost();
    const rec = path.join(dir, 'restart.rec');
    try {
      host.setDefinitions([stdioDef('r', ['--grandchildren', '--record', rec])]);
      await host.whenSettled();
      const first = host.pid('r')!;
      await host.restart('r');
      assert.equal(host.server('r')!.state.kind, 'connected');
      assert.notEqual(host.pid('r'), first);
      await host.dispose();
      const pids = recordedPids(rec);
      leftovers.push(...pids);
      assert.ok(pids.length >= 6, `recorded ${pids.length} pids`);
      for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} left behind`);
    } finally {
      await host.dispose();
    }
  });

  test('100 MB of stderr: memory stays bounded, the buffer is capped, other servers keep working', async () => {
    const { host, log } = newHost();
    try {
      host.setDefinitions([stdioDef('flood'), stdioDef('calm')]);
      await host.whenSettled();
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const flood = host.callTool('flood', 'flood', { mb: 100 }, { timeoutMs: 170_000 });
      let calmCalls = 0;
      let done = false;
      void flood.finally(() => {
        done = true;
      });
      while (!done) {
        assert.equal(textOf(await host.callTool('calm', 'echo', { text: 'ok' })), 'echo: ok');
        calmCalls++;
      }
      const r = await flood;
      clearInterval(sampler);
      assert.equal(textOf(r), 'flooded 100 MB');
      const growthMb = (peak - before) / 1024 / 1024;
      assert.ok(growthMb < 100, `RSS grew by ${growthMb.toFixed(1)} MB`);
      assert.ok(host.recentStderr('flood').length <= 64 * 1024, `stderr buffer ${host.recentStderr('flood').length}`);
      assert.ok(log.count < 20_000, `log was rate-limited (${log.count} lines for ~1,000,000 written)`);
      // The count of held-back lines is reported when the rate window closes, whether or not the
      // server writes anything after its burst: a test timeout here means it never was.
      assert.match(await log.nextLine(/lines not shown/), /\d+ lines not shown/);
      assert.ok(calmCalls >= 1);
      assert.equal(host.server('flood')!.state.kind, 'connected');
    } finally {
      await host.dispose();
    }
  });
});
