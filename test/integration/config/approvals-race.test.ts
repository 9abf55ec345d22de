/**
 * Approvals made at the same moment by different processes (the editor and `mcp-host approve`,
 * two CLI runs on one folder) all survive: each write changes the decisions on disk under the
 * file's lock, where a write of a stale in-memory copy used to keep only the last process's.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sharedServerApprovals } from '../../../src/core/config/approvals-file.js';

const PROCESSES = 4;
const EACH = 25;

function untilLine(child: ChildProcess, line: string, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what}: no "${line}" in 60 s; stdout: ${out}`)), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.split('\n').includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      if (!out.split('\n').includes(line)) {
        clearTimeout(timer);
        reject(new Error(`${what} exited ${code} before "${line}"`));
      }
    });
  });
}

test(`${PROCESSES} processes approving ${EACH} servers each at once: every decision is kept`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-approvals-race-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, MCP_HOST_CONFIG_DIR: join(dir, 'cfg') };
  const workspace = join(dir, 'ws');
  const children = Array.from({ length: PROCESSES }, (_, i) =>
    spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'approve-burst.ts'), workspace, `p${i}`, String(EACH)], {
      env,
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  t.after(() => children.forEach((c) => c.kill()));
  await Promise.all(children.map((c, i) => untilLine(c, 'ready', `process ${i}`)));
  const done = children.map((c, i) => untilLine(c, 'done', `process ${i}`));
  for (const c of children) c.stdin.write('go\n');
  await Promise.all(done);

  const approvals = sharedServerApprovals(workspace, env);
  const missing: string[] = [];
  for (let p = 0; p < PROCESSES; p++)
    for (let i = 0; i < EACH; i++) if (approvals.status(`p${p}-${i}`, `h-p${p}-${i}`) !== 'approved') missing.push(`p${p}-${i}`);
  assert.deepEqual(missing, [], `${missing.length} of ${PROCESSES * EACH} approvals were lost`);
});
