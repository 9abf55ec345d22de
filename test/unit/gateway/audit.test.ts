// The team gateway's audit log (service/audit.ts): who, which server and tool, outcome, duration,
// with an error's secrets redacted and no arguments written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpHost } from '../../../src/core/host.js';
import { AuditLog, auditedHost, currentCaller } from '../../../src/core/gateway/service/audit.js';

test('each upstream call is one line: who, what, outcome, duration; secrets redacted, arguments not written', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-host-audit-')), 'audit.jsonl');
  const log = new AuditLog(file);
  const fake = {
    forwardToolCall: async (_s: string, tool: string) => {
      if (tool === 'boom') throw new Error('upstream said: Authorization: Bearer sk-live-abcdefghijklmnop1234');
      return { content: [], isError: tool === 'bad' };
    },
    servers: () => ['kept'],
  } as unknown as McpHost;
  const host = auditedHost(fake, log);
  await currentCaller.run({ sub: 'alice' }, async () => {
    await host.forwardToolCall('gh', 'ok', { password: 'hunter2-secret' });
    await host.forwardToolCall('gh', 'bad', {});
    await assert.rejects(host.forwardToolCall('gh', 'boom', {}));
  });
  assert.deepEqual(host.servers(), ['kept'], 'everything else is the host’s own');
  await log.close();
  const text = readFileSync(file, 'utf8');
  assert.doesNotMatch(text, /sk-live|hunter2/);
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    lines.map((l) => [l.sub, l.server, l.kind, l.name, l.outcome]),
    [
      ['alice', 'gh', 'tool', 'ok', 'ok'],
      ['alice', 'gh', 'tool', 'bad', 'tool-error'],
      ['alice', 'gh', 'tool', 'boom', 'failed'],
    ],
  );
  assert.ok(lines.every((l) => typeof l.durationMs === 'number' && typeof l.time === 'string'));
  assert.match(String(lines[2]!.error), /upstream said/);
});
