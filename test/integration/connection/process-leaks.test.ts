/**
 * What a stdio server leaves behind once it is gone (issue 30): the chaos benchmark found setsid
 * grandchildren of servers that exited on their own still running after the run. Each test is one
 * way a server ends; each checks every pid the fixture recorded, the detached grandchild included.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { INSTANCE_ENV } from '../../../src/core/connection/process-tree.js';
import { StdioProcessTransport } from '../../../src/core/connection/stdio-transport.js';
import {
  MemoryLogger,
  STDIO_FIXTURE,
  isAlive,
  killPids,
  recordedPids,
  stdioDef,
  tempDir,
  textOf,
  waitFor,
} from './helpers.js';
import { pollUntil } from '../../support/wait.js';

const dir = tempDir('leaks');
const leftovers: number[] = [];

after(() => {
  killPids(leftovers);
  fs.rmSync(dir, { recursive: true, force: true });
});

function newHost(): McpHost {
  return createHost({ logger: new MemoryLogger(), blobDir: dir, env: {} });
}

function recorded(rec: string): number[] {
  const pids = recordedPids(rec);
  leftovers.push(...pids);
  return pids;
}

async function survivorsAfter(pids: number[], ms: number): Promise<number[]> {
  await pollUntil(() => !pids.some(isAlive), ms, 20);
  return pids.filter(isAlive);
}

test('a server that exits on its own: its setsid grandchild (now init’s child) is killed too', async () => {
  const host = newHost();
  const rec = path.join(dir, 'crash.rec');
  try {
    host.setDefinitions([stdioDef('orphans', ['--grandchildren', '--record', rec])]);
    await host.whenSettled();
    const pids = recorded(rec);
    assert.equal(pids.length, 3, `server and two grandchildren: ${pids.join(' ')}`);
    for (const pid of pids) assert.ok(isAlive(pid), `pid ${pid} alive before the crash`);
    await assert.rejects(host.callTool('orphans', 'crash', {}));
    await waitFor(host, 'orphans', (s) => s.state.kind === 'failed');
    // Nobody stops it: the host reaps what the dead server left on its own. A process that is not
    // our child sends no event when it dies, so its end is polled, with a deadline.
    assert.deepEqual(await survivorsAfter(pids, 10_000), [], 'nothing of the crashed server is left');
  } finally {
    await host.dispose();
  }
});

test('dispose right after a server died waits until its orphans are gone', async () => {
  const host = newHost();
  const rec = path.join(dir, 'dispose.rec');
  host.setDefinitions([stdioDef('orphans', ['--grandchildren', '--ignore-signals', '--record', rec])]);
  await host.whenSettled();
  const pids = recorded(rec);
  assert.equal(pids.length, 3);
  await assert.rejects(host.callTool('orphans', 'crash', {}));
  await waitFor(host, 'orphans', (s) => s.state.kind === 'failed');
  // As `mcp-host` does before it exits: nothing may still be on its way out once dispose resolves
  // (the grandchildren ignore SIGINT and SIGTERM, so only the SIGKILL step ends them, 0.5 s in).
  await host.dispose();
  assert.deepEqual(pids.filter(isAlive), [], 'dispose resolved before the orphans were killed');
});

test('a transport closed before it was started spawns nothing', async () => {
  const t = new StdioProcessTransport({
    command: process.execPath,
    args: [STDIO_FIXTURE],
    logger: new MemoryLogger(),
  });
  await t.close();
  try {
    await assert.rejects(t.start(), /stopped before it started/);
    assert.equal(t.pid, undefined, 'a server process was started after its transport closed');
  } finally {
    // On failure the orphan holds our pipes open: the file would hang instead of failing.
    if (t.pid !== undefined) killPids([t.pid]);
  }
});

test('the instance marker is in the server’s environment, random per start, and the entry cannot set it', async () => {
  const host = newHost();
  try {
    host.setDefinitions([stdioDef('m', [], { env: { [INSTANCE_ENV]: 'chosen-by-the-config' } })]);
    await host.whenSettled();
    const first = textOf(await host.callTool('m', 'env_value', { name: INSTANCE_ENV }));
    assert.match(first, /^[0-9a-f]{24}$/);
    await host.restart('m');
    const second = textOf(await host.callTool('m', 'env_value', { name: INSTANCE_ENV }));
    assert.match(second, /^[0-9a-f]{24}$/);
    assert.notEqual(first, second);
  } finally {
    await host.dispose();
  }
});

test('a write to a server that is exiting fails saying how it exited, not "write EPIPE"', async () => {
  // Closes its end of stdin, says so, and exits a moment later: the next message meets a broken pipe.
  const script =
    "process.stdin.destroy();process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'closed'})+'\\n');setTimeout(()=>process.exit(5),300)";
  const t = new StdioProcessTransport({ command: process.execPath, args: ['-e', script], logger: new MemoryLogger() });
  const closed = new Promise<void>((resolve) => (t.onmessage = () => resolve()));
  try {
    await t.start();
    await closed;
    const big = { jsonrpc: '2.0' as const, id: 1, method: 'ping', params: { pad: 'x'.repeat(1 << 20) } };
    await assert.rejects(t.send(big), (e: Error) => {
      assert.match(e.message, /exited with code 5/);
      return true;
    });
  } finally {
    await t.close();
  }
});

test('a server that starts a detached helper when told to stop, then exits: the helper is killed too', async () => {
  const rec = path.join(dir, 'late-helper.rec');
  // The helper is forked in the SIGINT handler, after the kill collected the tree (the server alone).
  const script = [
    "const { spawn } = require('node:child_process');",
    "const keep = \"process.on('SIGINT',()=>{});process.on('SIGTERM',()=>{});setInterval(()=>{},1e9)\";",
    "process.on('SIGINT', () => {",
    "  const c = spawn(process.execPath, ['-e', keep], { detached: true, stdio: 'ignore' });",
    `  require('node:fs').writeFileSync(${JSON.stringify(rec)}, String(c.pid));`,
    '  process.exit(0);',
    '});',
    "process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'ready' }) + '\\n');",
    'setInterval(() => {}, 1e9);',
  ].join('\n');
  const t = new StdioProcessTransport({ command: process.execPath, args: ['-e', script], logger: new MemoryLogger() });
  const ready = new Promise<void>((resolve) => (t.onmessage = () => resolve()));
  await t.start();
  await ready;
  await t.close();
  const helper = Number(fs.readFileSync(rec, 'utf8'));
  leftovers.push(helper);
  assert.ok(helper > 0, 'the server started its helper on SIGINT');
  assert.equal(isAlive(helper), false, 'the helper started during the stop outlived it');
});
