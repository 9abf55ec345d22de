// `mcp-host serve --http` refuses a per-user upstream it cannot make per person: a stdio server
// (one process for everyone, no Authorization header to carry a person's token), or a server that
// is not configured. The refusal names the file and the JSON path of the entry, and the gateway
// does not start (exit 2).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, type Harness } from '../../cli/harness.js';

let h: Harness;

before(async () => {
  h = await createHarness();
});

after(async () => {
  await h?.dispose();
});

describe('serve --http and gateway.upstreamAuth', { timeout: 60_000 }, () => {
  test('a per-user stdio server, or a per-user entry for no server, is refused naming file and path', async () => {
    const ws = await h.workspace('per-user-stdio', {});
    const file = join(h.dir, 'team.json');
    const write = (name: string): void =>
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: { local: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } },
          gateway: {
            auth: { issuer: 'http://127.0.0.1:9' },
            upstreamAuth: { [name]: { mode: 'per-user', clientId: 'team-gateway' } },
          },
        }),
      );
    write('local');
    const stdio = await h.run(['serve', '--http', '--port', '0', '--config', file], { cwd: ws });
    assert.equal(stdio.code, 2, stdio.stderr);
    assert.ok(stdio.stderr.includes(`${file}: gateway.upstreamAuth.local: local is a stdio server`), stdio.stderr);
    write('nowhere');
    const none = await h.run(['serve', '--http', '--port', '0', '--config', file], { cwd: ws });
    assert.equal(none.code, 2, none.stderr);
    assert.ok(none.stderr.includes(`${file}: gateway.upstreamAuth.nowhere: no server "nowhere" is configured`), none.stderr);
  });
});
