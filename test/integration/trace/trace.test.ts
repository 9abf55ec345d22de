// The protocol trace over real connections: a stdio fixture server through the host (the wrapper
// sits on the SDK Transport), and the bundled CLI's `--trace FILE`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHost } from '../../../src/core/host.js';
import { TraceHub } from '../../../src/core/trace/hub.js';
import { parseNdjson, type TraceRecord } from '../../../src/core/trace/record.js';
import { MemoryLogger, STDIO_FIXTURE, stdioDef, tempDir, textOf } from '../connection/helpers.js';
import { createHarness, type Harness } from '../cli/harness.js';

const SECRET = 'sekrit-value-4f9a1c';

function assertProtocolStory(recs: TraceRecord[], server: string): void {
  const line = (r: TraceRecord): string => `${r.direction} ${r.kind} ${r.method ?? ''}`;
  const seen = recs.map(line);
  for (const want of [
    'out request initialize',
    'in response initialize',
    'out notification notifications/initialized',
    'out request tools/list',
    'in response tools/list',
    'out request tools/call',
    'in response tools/call',
  ]) {
    assert.ok(seen.includes(want), `missing "${want}" in:\n${seen.join('\n')}`);
  }
  for (const r of recs) {
    assert.equal(r.server, server);
    assert.ok(r.size > 0);
    assert.ok(!Number.isNaN(Date.parse(r.time)));
  }
  const call = recs.find((r) => r.kind === 'response' && r.method === 'tools/call')!;
  const callReq = recs.find((r) => r.kind === 'request' && r.method === 'tools/call')!;
  assert.equal(call.id, callReq.id);
  assert.equal(typeof call.durationMs, 'number');
  assert.ok(call.durationMs! >= 0);
  assert.equal(call.durationMs, Date.parse(call.time) - Date.parse(callReq.time));
  const text = JSON.stringify(recs);
  assert.ok(!text.includes(SECRET), 'the secret from the entry env must not appear in the trace');
  assert.match(text, /\[redacted\]/);
}

describe('trace through the host', () => {
  test('initialize, tools/list and a call with its duration; the env secret a tool echoes is redacted', async () => {
    const hub = new TraceHub({ enabled: ['traced'] });
    const host = createHost({
      logger: new MemoryLogger(),
      blobDir: tempDir('trace-blobs'),
      wrapTransport: (d, t) => hub.attach(d, t),
    });
    try {
      host.setDefinitions([stdioDef('traced', [], { env: { MY_TOKEN: SECRET } }), stdioDef('quiet')]);
      await host.whenSettled();
      const r = await host.callTool('traced', 'env_value', { name: 'MY_TOKEN' });
      // The call itself is untouched by tracing: the host still gets the real value.
      assert.equal(textOf(r), SECRET);
      await host.callTool('quiet', 'echo', { text: 'hi' });
      assertProtocolStory(hub.records('traced'), 'traced');
      assert.equal(hub.records('quiet').length, 0, 'servers not traced keep nothing');
      // The negotiated protocol version is known for every server, traced or not (the details view).
      assert.match(hub.initializeResult('quiet')?.result.protocolVersion ?? '', /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(hub.initializeResult('quiet')?.result.serverInfo?.name, 'quiet');
    } finally {
      await host.dispose();
    }
  });
});

describe('CLI --trace', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness();
  });
  after(async () => {
    await h?.dispose();
  });

  test('writes the same messages as NDJSON, 0600, with the env secret redacted', async () => {
    const ws = await h.workspace('traced', {
      fx: { command: process.execPath, args: [STDIO_FIXTURE], env: { MY_TOKEN: SECRET } },
    });
    const file = join(ws, 'out.ndjson');
    const run = await h.run(['call', 'fx', 'env_value', '--args', '{"name":"MY_TOKEN"}', '--trace', 'out.ndjson'], {
      cwd: ws,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(SECRET));
    const recs = parseNdjson(readFileSync(file, 'utf8'));
    assertProtocolStory(recs, 'fx');
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test('an unwritable trace path is a usage error (exit 2)', async () => {
    const ws = await h.workspace('badtrace', {});
    const run = await h.run(['list', '--trace', join(ws, 'no', 'such', 'dir', 't.ndjson')], { cwd: ws });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--trace .*cannot write/);
  });
});
