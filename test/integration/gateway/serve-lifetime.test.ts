/**
 * `mcp-host serve` ends with its agent, at any moment of its life: here while its one server is
 * still connecting (a fixture slow to answer initialize), before serve's first answer. Closing
 * serve's stdin, or breaking its stdout, ends serve, and the server it started goes with it.
 * Both ways serve runs: the default shared gateway (serve-shared.ts; this agent is its last
 * session and the grace period is 0, so the gateway and its server end at once) and
 * `--own-servers` (the gateway in serve's own process).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, ROOT, waitGone, type Harness } from '../cli/harness.js';
import { serverScript } from '../../support/fixture-servers.js';
import { withDeadline } from '../../support/wait.js';
import { gatewayPathEnv } from '../../support/gateway-path.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'leaving-agent', version: '0' } },
})}\n`;

const MODES = {
  shared: { args: [], env: { MCP_HOST_SERVE_GRACE_MS: '0' } },
  'own-servers': { args: ['--own-servers'], env: {} },
} as const;
type Mode = keyof typeof MODES;

let h: Harness;
const children = new Set<ChildProcessWithoutNullStreams>();

before(async () => {
  h = await createHarness();
});

after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await h?.dispose();
});

/** serve over a workspace whose one server records its pid and takes 10 minutes to answer. */
async function startServe(
  name: string,
  mode: Mode,
): Promise<{
  child: ChildProcessWithoutNullStreams;
  exit: Promise<number | null>;
  serverPid: () => Promise<number>;
  stderr: () => string;
}> {
  const record = join(h.dir, `${name}.record`);
  const ws = await h.workspace(name, {
    slow: { command: process.execPath, args: [STDIO, '--name', 'slow', '--delay', '600000', '--record', record] },
  });
  const child = spawn(process.execPath, [h.cli, 'serve', '--allow-project-servers', ...MODES[mode].args], {
    cwd: ws,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: h.dir,
      MCP_HOST_BLOB_DIR: join(h.dir, 'blobs'),
      MCP_HOST_LOG: 'debug',
      ...gatewayPathEnv(),
      ...MODES[mode].env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const serverPid = (): Promise<number> =>
    withDeadline(
      (async () => {
        for (;;) {
          let line: string | undefined;
          try {
            line = readFileSync(record, 'utf8')
              .split('\n')
              .find((l) => l.startsWith('start '));
          } catch {
            // Not written yet.
          }
          if (line) return Number(line.split(' ')[1]);
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
      `the slow server started (serve stderr: ${stderr})`,
      30_000,
    );
  return { child, exit, serverPid, stderr: () => stderr };
}

for (const mode of Object.keys(MODES) as Mode[])
  describe(`serve ends when its agent leaves (${mode})`, { timeout: 120_000 }, () => {
    test('stdin closed before the first answer, while its server connects: serve exits, the server is gone', async () => {
      const s = await startServe(`stdin-closed-${mode}`, mode);
      const pid = await s.serverPid();
      // The agent asks and leaves before any answer (its server is still connecting).
      s.child.stdin.end(INITIALIZE);
      const code = await withDeadline(s.exit, `serve exits after its stdin closed (stderr: ${s.stderr()})`, 20_000);
      assert.equal(code, 0, s.stderr());
      assert.equal(await waitGone(pid), true, `server process ${pid} is still running`);
    });

    test('stdin closed with nothing said: serve exits, the server is gone', async () => {
      const s = await startServe(`stdin-silent-${mode}`, mode);
      const pid = await s.serverPid();
      s.child.stdin.end();
      await withDeadline(s.exit, `serve exits after its stdin closed (stderr: ${s.stderr()})`, 20_000);
      assert.equal(await waitGone(pid), true, `server process ${pid} is still running`);
    });

    test('stdout broken (EPIPE on its answer), stdin still open: serve exits, the server is gone', async () => {
      const s = await startServe(`stdout-broken-${mode}`, mode);
      const pid = await s.serverPid();
      s.child.stdout.destroy();
      s.child.stdin.write(INITIALIZE);
      await withDeadline(s.exit, `serve exits after its stdout broke (stderr: ${s.stderr()})`, 20_000);
      assert.equal(await waitGone(pid), true, `server process ${pid} is still running`);
    });
  });
