/**
 * Per-server tool-call timeout (`toolTimeout` in the entry): it beats MCP_TOOL_TIMEOUT and the
 * setting, and an explicit per-call timeout (CLI --timeout) beats it. A real fixture server whose
 * `hang` tool never answers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { MemoryLogger, stdioDef, tempDir } from '../connection/helpers.js';

const dir = tempDir('tool-timeout');
const hosts: McpHost[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
});

function host(env: Record<string, string>): McpHost {
  const h = createHost({ logger: new MemoryLogger(), blobDir: dir, env, timeouts: { toolCallMs: 600_000 } });
  hosts.push(h);
  return h;
}

async function timeoutOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => assert.fail('the call should time out'),
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.equal(err.code, 'request-timeout', err.message);
  return err.message;
}

test('a server entry toolTimeout wins over MCP_TOOL_TIMEOUT and the setting', async () => {
  const h = host({ MCP_TOOL_TIMEOUT: '600000' });
  h.setDefinitions([stdioDef('quick', [], { toolTimeout: 300 }), stdioDef('patient', [])]);
  await h.whenSettled();
  assert.match(await timeoutOf(h.callTool('quick', 'hang', {})), /timed out after 300 ms/);
  // The other server keeps the global value: an explicit per-call timeout is what ends this one.
  assert.match(await timeoutOf(h.callTool('patient', 'hang', {}, { timeoutMs: 250 })), /timed out after 250 ms/);
});

test('an explicit per-call timeout beats the entry toolTimeout', async () => {
  const h = host({});
  h.setDefinitions([stdioDef('slowish', [], { toolTimeout: 600_000 })]);
  await h.whenSettled();
  assert.match(await timeoutOf(h.callTool('slowish', 'hang', {}, { timeoutMs: 200 })), /timed out after 200 ms/);
});
