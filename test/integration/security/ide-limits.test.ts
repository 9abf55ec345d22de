/**
 * The IDE server under load from this machine (issue 12, items 4 and 5): a token holder that
 * writes requests and never reads the answers is stopped (reading paused, then disconnected)
 * instead of growing our memory, and is not kept alive by its own writes; anyone without a token
 * cannot hold sockets open (handshake timeout, a cap on waiting sockets that evicts the oldest) nor
 * flood the log with refusals.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AUTH_HEADER } from '../../../src/core/ide/auth.js';
import type { IdeFileDiagnostics } from '../../../src/core/ide/editor-port.js';
import { IdeServer, type IdeServerOptions } from '../../../src/core/ide/server.js';
import { MemoryLogger } from '../../support/logger.js';
import { connectAgent, openSocket, readLocks, texts } from '../ide/agent.js';
import { FakeEditor } from '../ide/fake-editor.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

class CountingEditor extends FakeEditor {
  handled = 0;
  private onHandled: (() => void) | undefined;
  whenHandled(n: number): Promise<void> {
    return new Promise((resolve) => (this.onHandled = () => this.handled >= n && resolve()));
  }
  override diagnostics(uri?: string): IdeFileDiagnostics[] {
    this.handled++;
    this.onHandled?.();
    return super.diagnostics(uri);
  }
}

async function start(opts: Partial<IdeServerOptions> = {}) {
  const lockDir = mkdtempSync(join(tmpdir(), 'mcp-sec-ide-'));
  dirs.push(lockDir);
  const logger = new MemoryLogger();
  const editor = new CountingEditor();
  const server = await IdeServer.start({ editor, logger, ideName: 'MCP Host Security Test', lockDir, ...opts });
  const lock = readLocks(lockDir)[0]!;
  return { server, logger, editor, lock };
}

function closed(s: Socket): Promise<void> {
  return new Promise((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
}

function tcp(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

test(
  'a client that sends requests and never reads the answers is paused or disconnected, not buffered without bound',
  { timeout: 60_000 },
  async () => {
    const { server, logger, editor, lock } = await start({
      limits: { pauseUnreadBytes: 256 * 1024, maxUnreadBytes: 2 * 1024 * 1024 },
    });
    try {
      // ~10 KB per answer: 3,000 unread answers would be 30 MB without limits.
      editor.diags = [
        {
          uri: 'file:///work/proj/a.ts',
          diagnostics: Array.from({ length: 80 }, (_, i) => ({
            message: `problem ${i} ${'x'.repeat(60)}`,
            severity: 'Error' as const,
            range: { start: { line: i, character: 0 }, end: { line: i, character: 1 } },
            source: 'ts',
          })),
        },
      ];
      const agent = await connectAgent(lock);
      agent.ws.pause(); // stop reading, keep writing
      const N = 3000;
      const all = editor.whenHandled(N).then(() => 'all handled');
      const stopped = logger.nextLine(/not reading its answers|unread answers/).then(() => 'stopped');
      for (let i = 0; i < N; i++)
        agent.ws.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1000 + i,
            method: 'tools/call',
            params: { name: 'getDiagnostics', arguments: {} },
          }),
        );
      assert.equal(await Promise.race([all, stopped]), 'stopped');
      assert.ok(editor.handled < N, `the server stopped reading: ${editor.handled} of ${N} handled`);
      agent.ws.terminate();
    } finally {
      await server.dispose();
    }
  },
);

test(
  "a client's own writes do not keep it alive: one that never reads (so never answers pings) is dropped",
  { timeout: 30_000 },
  async () => {
    const { server, lock } = await start({ keepAliveMs: 200 });
    try {
      const agent = await connectAgent(lock);
      assert.equal(server.clientCount(), 1);
      const gone = new Promise<void>((resolve) => server.onDidChange(() => server.clientCount() === 0 && resolve()));
      agent.ws.pause();
      const writer = setInterval(
        () =>
          agent.ws.send(
            JSON.stringify({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: 1, progress: 1 },
            }),
          ),
        50,
      );
      await gone;
      clearInterval(writer);
      agent.ws.terminate();
    } finally {
      await server.dispose();
    }
  },
);

test('a socket that never sends a handshake is closed after the handshake timeout', { timeout: 30_000 }, async () => {
  const { server } = await start({ limits: { handshakeTimeoutMs: 500 } });
  try {
    const idle = await tcp(server.port);
    await closed(idle);
  } finally {
    await server.dispose();
  }
});

test(
  'a flood of idle connections cannot lock out an agent; the server keeps only a few',
  { timeout: 60_000 },
  async () => {
    const { server, logger, lock } = await start({ limits: { maxPending: 8, handshakeTimeoutMs: 60_000 } });
    try {
      const idle: Socket[] = [];
      for (let i = 0; i < 200; i++) idle.push(await tcp(server.port));
      // All but the newest 8 are dropped by the server (waited on, not timed).
      let dropped = 0;
      await new Promise<void>((resolve) => {
        for (const s of idle) void closed(s).then(() => ++dropped >= 192 && resolve());
      });
      const agent = await connectAgent(lock);
      assert.deepEqual(texts(await agent.call('getWorkspaceFolders')).length, 1);
      await agent.close();
      for (const s of idle) s.destroy();
      const dropLines = logger.lines.filter((l) => /dropped a connection/.test(l));
      assert.ok(dropLines.length <= 5, `drop lines are rate-limited: ${dropLines.length}`);
    } finally {
      await server.dispose();
    }
    assert.ok(
      logger.lines.some((l) => /more refused connection\(s\) not logged/.test(l)),
      'the held-back lines are summed up',
    );
  },
);

test('refused upgrades are logged at a bounded rate', { timeout: 60_000 }, async () => {
  const { server, logger, lock } = await start();
  try {
    for (let i = 0; i < 100; i++) {
      await assert.rejects(
        openSocket(lock.port, { [AUTH_HEADER]: 'wrong-token' }),
        (e: unknown) => (e as { status?: number }).status === 401,
      );
    }
    const refusedLines = logger.lines.filter((l) => /refused connection/.test(l));
    assert.ok(refusedLines.length <= 5, `${refusedLines.length} refusal lines for 100 refusals`);
    assert.ok(refusedLines.length >= 1, 'refusals are still logged');
  } finally {
    await server.dispose();
  }
});
