// `mcp-host call` run as a new user would (the folder of cli.test.ts): results, errors and exit codes,
// timeouts, and only the named server started. Split from cli.test.ts so the files run side by side.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { waitGone, type Harness } from './harness.js';
import { withMainWorkspace } from './main-workspace.js';

let h: Harness;
let ws: string;

withMainWorkspace((opened) => ({ h, ws } = opened));

describe('call', () => {
  // This one, the isError exit and the server-left-behind check run the binary: the exit code and
  // the flushed stdout of a real process, and what is still running after it exits.
  test('prints the text of the result and exits 0', async () => {
    const r = await h.runBinary(['call', 'everything', 'echo', '--args', '{"message":"hello from the CLI"}'], {
      cwd: ws,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Echo: hello from the CLI\n');
  });

  test('--json prints the whole result', async () => {
    const r = await h.run(['call', '--json', 'everything', 'get-sum', '--args={"a":2,"b":40}'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as {
      content: { type: string; text: string }[];
      isError: boolean;
      durationMs: number;
    };
    assert.equal(result.isError, false);
    assert.match(result.content[0]!.text, /42/);
    assert.equal(typeof result.durationMs, 'number');
  });

  test('a tool that returns isError exits 1 and still prints its output', async () => {
    const r = await h.runBinary(['call', 'errors', 'fail'], { cwd: ws });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, 'the tool failed on purpose\n');
  });

  test('structured content that breaks the output schema is an error, not a result', async () => {
    const r = await h.run(['call', 'errors', 'bad-structured'], { cwd: ws });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /output schema/);
    assert.equal(r.stdout, '');
  });

  test('unknown server and unknown tool are usage errors listing the known names', async () => {
    const s = await h.run(['call', 'nosuch', 'echo'], { cwd: ws });
    assert.equal(s.code, 2);
    assert.match(s.stderr, /unknown server "nosuch"; known servers: everything, errors/);
    const t = await h.run(['call', 'everything', 'nosuch'], { cwd: ws });
    assert.equal(t.code, 2);
    assert.match(t.stderr, /has no tool "nosuch"; its tools: .*echo/);
  });

  test('a broken entry named on the line is a usage error that shows the config problem', async () => {
    const r = await h.run(['call', 'broken', 'x'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /server "broken" has configuration errors/);
    assert.match(r.stderr, /mcpServers\.broken\.command/);
  });

  test('bad --args: invalid JSON, not an object, or failing the input schema exit 2', async () => {
    const bad = await h.run(['call', 'everything', 'echo', '--args', '{message: hi}'], { cwd: ws });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--args is not valid JSON/);
    const arr = await h.run(['call', 'everything', 'echo', '--args', '[1]'], { cwd: ws });
    assert.equal(arr.code, 2);
    assert.match(arr.stderr, /--args must be a JSON object, got an array/);
    const schema = await h.run(['call', 'everything', 'echo', '--args', '{"message": 5}'], { cwd: ws });
    assert.equal(schema.code, 2);
    assert.match(schema.stderr, /\/message: must be string/);
  });

  test('--timeout ends a call that never answers with exit 3', async () => {
    const r = await h.run(['call', 'errors', 'hang', '--timeout', '1500'], { cwd: ws });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /timed out after 1500 ms/);
  });

  test('a server that cannot start exits 3 with what to do', async () => {
    const dir = await h.workspace('only-missing', { missing: { command: 'no-such-command-for-mcp-host-tests' } });
    const r = await h.runBinary(['call', 'missing', 'anything'], { cwd: dir });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /command not found/);
    assert.match(r.stderr, /absolute path/);
  });

  test('a server gets the environment the run was given, in this process as from the binary', async () => {
    const env = { USER: 'cli-test-user', SHELL: '/bin/cli-test-sh' };
    const inProcess = await h.run(['call', 'errors', 'env'], { cwd: ws, env });
    const binary = await h.runBinary(['call', 'errors', 'env'], { cwd: ws, env });
    assert.equal(inProcess.code, 0, inProcess.stderr);
    assert.equal(binary.code, 0, binary.stderr);
    assert.deepEqual(JSON.parse(inProcess.stdout), { HOME: h.dir, PATH: process.env.PATH, ...env });
    assert.equal(inProcess.stdout, binary.stdout);
  });

  test('only the named server is started, and its process is gone when the CLI exits', async () => {
    const marker = join(h.dir, 'sentinel-started');
    const dir = await h.workspace('only-needed', {
      errors: { command: process.execPath, args: [h.fixture('errors-server')] },
      sentinel: {
        command: process.execPath,
        args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      },
    });
    const r = await h.runBinary(['call', 'errors', 'pid'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const pid = Number(r.stdout.trim());
    assert.ok(pid > 0);
    assert.equal(await waitGone(pid), true, `server process ${pid} is still running`);
    assert.equal(existsSync(marker), false, 'the other server was never started');
    // The sentinel does start when a command needs every server: the check above can fail.
    await h.runBinary(['list'], { cwd: dir });
    assert.equal(existsSync(marker), true);
  });
});
