/**
 * A host that is killed cannot stop its servers, and a server that outlives its stdin (the official
 * MCP Apps PDF server keeps a file watch; this fixture a timer) then runs on for good. The built CLI
 * is killed with SIGKILL in the middle of a call to such a server, which also ignores SIGINT and
 * SIGTERM and has two grandchildren (one in its group, one detached): the watcher of
 * core/connection/host-reaper.ts ends all three.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serverScript } from '../../support/fixture-servers.js';
import { poll } from '../../support/wait.js';
import { ROOT, alive, createHarness, waitGone, type Harness } from './harness.js';

const LINUX = process.platform === 'linux';
let h: Harness;

before(async () => {
  h = await createHarness();
});
after(() => h?.dispose());

test(
  'a SIGKILLed CLI leaves no server behind, however stubborn',
  { skip: !LINUX && 'needs /proc (Linux)' },
  async () => {
    const rec = join(h.dir, 'stubborn.log');
    const cfg = join(h.dir, 'stubborn.mcp.json');
    const script = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
    const args = [script, '--outlive-stdin', '--ignore-signals', '--grandchildren', '--record', rec];
    await writeFile(cfg, JSON.stringify({ mcpServers: { stubborn: { command: process.execPath, args } } }));
    const { child, exit } = h.start(['--config', cfg, 'call', 'stubborn', 'hang'], { cwd: h.dir });
    const pids: number[] = [];
    try {
      const lines = await poll('the server ready with its grandchildren', 30_000, async () => {
        const text = await readFile(rec, 'utf8').catch(() => '');
        return /^ready /m.test(text) ? text : undefined;
      });
      pids.push(Number(/^start (\d+)/m.exec(lines)![1]));
      for (const m of lines.matchAll(/^grandchild:(\d+) /gm)) pids.push(Number(m[1]));
      assert.equal(pids.length, 3, lines);
      for (const pid of pids) assert.ok(alive(pid), `${pid} runs before the kill`);
      child.kill('SIGKILL');
      await exit;
      for (const pid of pids) assert.ok(await waitGone(pid, 15_000), `process ${pid} ended after its host was killed`);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  },
);
