/** Core's process-tree kill as scripts/start.mjs and the e2e harness use it, on a real process tree. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { isAlive, killTree, killTreeSync, processTree } from '../../src/core/connection/process-tree.js';
import { pollUntil } from '../support/wait.js';

test('killTree stops a detached shell, its children and a grandchild that ignores SIGTERM', async () => {
  // The shell prints its children's pids once they run, so the test waits on output, not on time.
  const script = 'sleep 300 & sh -c \'trap "" TERM; sleep 300 & wait\' & sleep 0.2; echo ready; wait';
  const root = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await once(root.stdout!, 'data');
  const tree = processTree(root.pid!);
  assert.ok(tree.length >= 4, `root, two children and a grandchild: ${tree.join(' ')}`);
  assert.equal(tree[0], root.pid, 'parents first');
  await killTree(root.pid!, { interrupt: false, killAfterMs: 500 });
  const survivors = tree.filter(isAlive);
  assert.deepEqual(survivors, [], 'the TERM-ignoring one is SIGKILLed after the grace period');
});

test('killTreeSync SIGKILLs the whole tree at once, the TERM-ignoring grandchild too', async () => {
  const script = 'sleep 300 & sh -c \'trap "" TERM; sleep 300 & wait\' & sleep 0.2; echo ready; wait';
  const root = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await once(root.stdout!, 'data');
  const tree = processTree(root.pid!);
  assert.ok(tree.length >= 4, `root, two children and a grandchild: ${tree.join(' ')}`);
  const exited = once(root, 'exit');
  killTreeSync(root.pid!);
  const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.equal(signal, 'SIGKILL');
  // The others are not our children: the kernel takes them at the same SIGKILL; wait on that with a deadline.
  await pollUntil(() => !tree.some(isAlive), 5000, 10);
  assert.deepEqual(tree.filter(isAlive), []);
});
