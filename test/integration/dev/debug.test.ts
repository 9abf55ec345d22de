// `dev.debug` against real runtimes: a Node server started with the inspector flag answers on the
// port its "Debugger listening" line names, and a Python server started through debugpy speaks DAP
// on the chosen port while serving MCP. (The editor's attach is covered by the dev-mode e2e test.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createHost } from '../../../src/core/host.js';
import { debugConfigFor, parseDebuggerListening } from '../../../src/core/dev/debug.js';
import type { StdioServerConfig } from '../../../src/core/config/types.js';
import type { ServerSnapshot } from '../../../src/core/host-api.js';
import { FIXTURES, MemoryLogger, STDIO_FIXTURE, def, freePort, tempDir, textOf } from '../connection/helpers.js';
import { requireTool } from '../../support/system-tool.js';

function pythonWithDebugpy(): string | undefined {
  for (const py of ['python3', '/usr/bin/python3', 'python']) {
    const r = spawnSync(py, ['-c', 'import debugpy'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return undefined;
}

/** Sends a DAP `initialize` request and resolves the adapter's response. */
function dapInitialize(port: number): Promise<{ success: boolean; command: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let buf = '';
    sock.on('error', reject);
    sock.on('connect', () => {
      const body = JSON.stringify({
        seq: 1,
        type: 'request',
        command: 'initialize',
        arguments: { adapterID: 'mcp-host-test', clientID: 'mcp-host' },
      });
      sock.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    sock.on('data', (d: Buffer) => {
      buf += d.toString();
      for (;;) {
        const m = /Content-Length: (\d+)\r\n\r\n/.exec(buf);
        if (!m) return;
        const start = m.index + m[0].length;
        if (buf.length < start + Number(m[1])) return;
        const msg = JSON.parse(buf.slice(start, start + Number(m[1]))) as {
          type: string;
          command: string;
          success: boolean;
        };
        buf = buf.slice(start + Number(m[1]));
        if (msg.type === 'response' && msg.command === 'initialize') {
          sock.destroy();
          resolve(msg);
          return;
        }
      }
    });
  });
}

test('node: the server runs under the inspector on the port its stderr names, and still serves MCP', async () => {
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: tempDir('dbg-blobs') });
  try {
    const config = debugConfigFor({
      type: 'stdio',
      command: process.execPath,
      args: [STDIO_FIXTURE, '--name', 'nodedbg'],
      dev: { debug: { type: 'node' } },
    } as StdioServerConfig);
    host.setDefinitions([def('nodedbg', config as unknown as Record<string, unknown>)]);
    await host.whenSettled();
    assert.equal(host.server('nodedbg')?.state.kind, 'connected');
    const found = host.recentStderr('nodedbg').split('\n').map(parseDebuggerListening).find(Boolean);
    assert.ok(found, `no "Debugger listening" line in stderr:\n${host.recentStderr('nodedbg')}`);
    // The inspector's HTTP endpoint lists the server process as a debug target.
    const targets = (await (await fetch(`http://127.0.0.1:${found.port}/json/list`)).json()) as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    assert.equal(targets[0]?.type, 'node');
    assert.match(targets[0]!.webSocketDebuggerUrl, new RegExp(`127\\.0\\.0\\.1:${found.port}/`));
    assert.equal(textOf(await host.callTool('nodedbg', 'echo', { text: 'hi' })), 'echo: hi');
  } finally {
    await host.dispose();
  }
});

test('python: the server runs through debugpy on the chosen port (DAP answers) and still serves MCP', async (t) => {
  const py = pythonWithDebugpy();
  const missing = requireTool('python3-debugpy', 'apt-get install python3-debugpy', () => py !== undefined);
  if (missing || !py) return t.skip(missing);
  const host = createHost({ logger: new MemoryLogger(), blobDir: tempDir('dbg-blobs') });
  try {
    // The port is free when chosen, but another test's process may take it before debugpy listens
    // (a CI run lost it so): a start that fails with "Address already in use" tries a new port.
    let port = 0;
    let st: ServerSnapshot['state'] | undefined;
    for (let tries = 1; ; tries++) {
      port = await freePort();
      const config = debugConfigFor(
        { type: 'stdio', command: py, args: [join(FIXTURES, 'py_server.py')], dev: { debug: { type: 'python' } } },
        { pythonPort: port },
      );
      assert.deepEqual(config.args.slice(0, 4), ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`]);
      host.setDefinitions([def('pydbg', config as unknown as Record<string, unknown>)]);
      await host.whenSettled();
      st = host.server('pydbg')?.state;
      const lost = st?.kind === 'failed' && /Address already in use/.test(st.error.message);
      if (!lost || tries === 3) break;
      host.setDefinitions([]);
      await host.whenSettled();
    }
    assert.equal(st?.kind, 'connected', JSON.stringify(st));
    assert.equal(textOf(await host.callTool('pydbg', 'py_echo', { text: 'hi' })), 'py: hi');
    const res = await dapInitialize(port);
    assert.equal(res.success, true);
  } finally {
    await host.dispose();
  }
});
