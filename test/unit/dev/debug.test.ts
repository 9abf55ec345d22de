import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  DebugSetupError,
  NODE_INSPECT_FLAG,
  SERVER_KEY,
  attachConfiguration,
  debugConfigFor,
  parseDebuggerListening,
} from '../../../src/core/dev/debug.js';
import type { StdioServerConfig } from '../../../src/core/config/types.js';

const cfg = (
  command: string,
  args: string[],
  debug?: 'node' | 'python',
  env?: Record<string, string>,
): StdioServerConfig => ({
  type: 'stdio',
  command,
  args,
  ...(env ? { env } : {}),
  ...(debug ? { dev: { debug: { type: debug } } } : {}),
});

test('node: --inspect on loopback port 0 goes before the script; other commands get NODE_OPTIONS', () => {
  assert.deepEqual(debugConfigFor(cfg('node', ['build/index.js'], 'node')).args, [NODE_INSPECT_FLAG, 'build/index.js']);
  assert.deepEqual(debugConfigFor(cfg('/usr/local/bin/node', ['x.js'], 'node')).args, [NODE_INSPECT_FLAG, 'x.js']);
  const already = cfg('node', ['--inspect=9999', 'x.js'], 'node');
  assert.deepEqual(debugConfigFor(already).args, already.args);
  const npx = debugConfigFor(cfg('npx', ['tsx', 'src/index.ts'], 'node', { NODE_OPTIONS: '--max-old-space-size=100' }));
  assert.deepEqual(npx.args, ['tsx', 'src/index.ts']);
  assert.equal(npx.env!.NODE_OPTIONS, `--max-old-space-size=100 ${NODE_INSPECT_FLAG}`);
  const plain = cfg('node', ['x.js']);
  assert.equal(debugConfigFor(plain), plain, 'no debug: unchanged');
});

test('python: python -m debugpy --listen on the chosen port; a non-Python command is a clear error', () => {
  assert.deepEqual(debugConfigFor(cfg('python3', ['server.py', '--x'], 'python'), { pythonPort: 5678 }).args, [
    '-m',
    'debugpy',
    '--listen',
    '127.0.0.1:5678',
    'server.py',
    '--x',
  ]);
  assert.throws(
    () => debugConfigFor(cfg('uvx', ['my-server'], 'python'), { pythonPort: 1 }),
    (e: unknown) => e instanceof DebugSetupError && /Python interpreter/.test(e.message),
  );
});

test('parseDebuggerListening reads the port Node prints, and nothing else', async () => {
  assert.deepEqual(parseDebuggerListening('Debugger listening on ws://127.0.0.1:40123/6f1c-aa'), {
    host: '127.0.0.1',
    port: 40123,
  });
  assert.deepEqual(parseDebuggerListening('[stderr] Debugger listening on ws://[::1]:9229/abc'), {
    host: '::1',
    port: 9229,
  });
  assert.equal(parseDebuggerListening('For help, see: https://nodejs.org/en/docs/inspector'), undefined);
  // The real line of this Node, started the way dev mode starts a server.
  const child = spawn(process.execPath, [NODE_INSPECT_FLAG, '-e', 'setTimeout(()=>{}, 10000)'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let text = '';
    let found: ReturnType<typeof parseDebuggerListening>;
    for await (const chunk of child.stderr) {
      text += String(chunk);
      found = text.split('\n').map(parseDebuggerListening).find(Boolean);
      if (found) break;
    }
    assert.ok(found, text);
    assert.equal(found.host, '127.0.0.1');
    assert.ok(found.port > 0);
  } finally {
    child.kill();
    await once(child, 'exit');
  }
});

test('attach configurations name the server and carry the marker', () => {
  const n = attachConfiguration('calc', 'node', '127.0.0.1', 4000);
  assert.equal(n.type, 'node');
  assert.equal(n.request, 'attach');
  assert.equal(n.port, 4000);
  assert.equal(n[SERVER_KEY], 'calc');
  const p = attachConfiguration('py', 'python', '127.0.0.1', 5678);
  assert.deepEqual(p.connect, { host: '127.0.0.1', port: 5678 });
});
