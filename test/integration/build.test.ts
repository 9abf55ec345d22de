import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { PipeTransport } from '../../src/core/apps/transport.js';

// ESM-only package, loaded with import() from this CommonJS test.
import type { App } from '@modelcontextprotocol/ext-apps' with { 'resolution-mode': 'import' };
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { pipeOf } from './apps/message-pipe.js';

test('the bundle builds and the CLI prints its version', () => {
  execFileSync(process.execPath, ['esbuild.config.mjs'], { stdio: 'pipe' });
  assert.ok(existsSync('dist/extension.js'));
  const out = execFileSync(process.execPath, ['dist/cli.js', '--version'], { encoding: 'utf8' });
  assert.match(out, /^\d+\.\d+\.\d+/);
});

// The bridge bundle is built with modules marked side-effect free and zod's locales cut down to
// English (esbuild.config.mjs); this proves what ships still speaks to the official app side.
test('the bundled MCP Apps bridge (dist/ext-apps-bridge.js) completes the handshake and serves a tool call', async () => {
  if (!existsSync('dist/ext-apps-bridge.js')) execFileSync(process.execPath, ['esbuild.config.mjs'], { stdio: 'pipe' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AppBridge: Bridge } = require(join(process.cwd(), 'dist/ext-apps-bridge.js')) as {
    AppBridge: typeof AppBridge;
  };
  const { App: AppClass } = (await import('@modelcontextprotocol/ext-apps')) as { App: typeof App };
  const { port1, port2 } = new MessageChannel();
  const bridge = new Bridge(
    null,
    { name: 'build-test-host', version: '0.0.0' },
    { serverTools: {} },
    { hostContext: { theme: 'dark' } },
  );
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  bridge.oncalltool = async (params) => ({ content: [{ type: 'text', text: `called ${params.name}` }] });
  await bridge.connect(new PipeTransport(pipeOf(port1)));
  const app = new AppClass({ name: 'build-test-app', version: '1.0.0' }, {}, { autoResize: false });
  try {
    await app.connect(new PipeTransport(pipeOf(port2)));
    await initialized;
    assert.equal(app.getHostContext()?.theme, 'dark');
    const result = await app.callServerTool({ name: 'echo', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'called echo' }]);
  } finally {
    await app.close().catch(() => {});
    await bridge.close().catch(() => {});
    port1.close();
    port2.close();
  }
});
