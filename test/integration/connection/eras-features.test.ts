/**
 * The client features eras.test.ts does not cover, on both eras against one fixture
 * (modern-server.mjs): progress, cancellation, completions, a result's `_meta`, and liveness
 * (`server/discover` where `ping` is gone).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpHost } from '../../../src/core/host.js';
import { HostError } from '../../../src/core/errors.js';
import { gatewayFeatures } from '../../../src/core/gateway/features.js';
import { withDeadline } from '../../support/wait.js';
import { eraHosts } from './era-hosts.js';
import { def, textOf } from './helpers.js';

const { newHost, http, stdio, connected } = eraHosts('eras-features');

async function features(host: McpHost, name: string, era: 'modern' | 'legacy'): Promise<void> {
  const progress: string[] = [];
  const r = await host.callTool(
    name,
    'progress',
    {},
    { onProgress: (p) => progress.push(`${p.progress}/${p.total} ${p.message}`) },
  );
  assert.equal(textOf(r), 'progressed');
  assert.deepEqual(progress, ['1/3 step 1', '2/3 step 2', '3/3 step 3']);

  const abort = new AbortController();
  await assert.rejects(
    host.callTool(name, 'wait', {}, { signal: abort.signal, onProgress: () => abort.abort() }),
    (err: unknown) => err instanceof HostError && err.code === 'cancelled',
  );
  // The server hears the cancel on its own schedule: ask until it has (bounded).
  await withDeadline(
    (async () => {
      while (textOf(await host.callTool(name, 'cancelled', {})) !== '1')
        await new Promise((res) => setTimeout(res, 50));
    })(),
    `${name} seeing the cancellation`,
  );

  const completion = await gatewayFeatures(host).complete(
    name,
    { type: 'ref/prompt', name: 'greet' },
    { name: 'who', value: 'A' },
    undefined,
    new AbortController().signal,
  );
  assert.deepEqual(completion.values, ['Ada', 'Alan']);

  const meta = await host.callTool(name, 'meta', {});
  assert.equal(meta.meta?.['fixture/answered-by'], era, 'the result _meta');
}

describe('progress, cancellation, completions and _meta on both eras', () => {
  test('modern stdio', async () => {
    const { host } = newHost();
    host.setDefinitions([stdio('local')]);
    await connected(host, 'local', '2026-07-28');
    await features(host, 'local', 'modern');
  });

  test('modern Streamable HTTP', async () => {
    const s = await http();
    const { host } = newHost();
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    await features(host, 'remote', 'modern');
  });

  test('legacy stdio', async () => {
    const { host } = newHost({ eraNegotiation: 'legacy' });
    host.setDefinitions([stdio('old')]);
    await connected(host, 'old', '2025-11-25');
    await features(host, 'old', 'legacy');
  });
});

describe('liveness where ping is gone', () => {
  test('a modern HTTP server that stops answering server/discover is found unresponsive', async () => {
    const s = await http();
    const { host, log } = newHost({ features: { pingIntervalMs: 300 } });
    host.setDefinitions([def('remote', { type: 'http', url: s.url })]);
    await connected(host, 'remote', '2026-07-28');
    // Frozen, not gone: the kernel still accepts its connections, nothing answers them.
    process.kill(s.proc.pid!, 'SIGSTOP');
    try {
      await log.nextLine(/remote is unresponsive: it did not answer a ping/);
    } finally {
      process.kill(s.proc.pid!, 'SIGCONT');
    }
  });
});
