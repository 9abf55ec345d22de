// `mcp-host serve --http` refuses a per-user upstream it cannot make per person: a stdio server
// (one process for everyone, no Authorization header to carry a person's token), or a server that
// is not configured. The refusal names the file and the JSON path of the entry, and the gateway
// does not start (exit 2). And the process as an operator runs it: two people call a per-user
// server through it (a tool call, a resource read, a completion; a subscription refused) and the
// upstream sees each of them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHarness, type Harness } from '../../cli/harness.js';
import { GATEWAY_CLIENT, startPerUserUpstream, type PerUserUpstream } from '../../../support/per-user-upstream.js';
import { poll } from '../../../support/wait.js';
import { withDeadline } from '../../../support/wait.js';
import { closeAgent, text } from '../helpers.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';

let h: Harness;
let idp: TeamIdp;
let fx: PerUserUpstream;
let child: ChildProcess | undefined;
const team = { issuer: '', gatewayResource: '' };

before(async () => {
  [h, idp] = await Promise.all([createHarness(), startTeamIdp()]);
  team.issuer = idp.issuer;
  fx = await startPerUserUpstream(team);
});

after(async () => {
  child?.kill('SIGKILL');
  await fx?.close();
  await idp?.close();
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
    assert.ok(
      none.stderr.includes(`${file}: gateway.upstreamAuth.nowhere: no server "nowhere" is configured`),
      none.stderr,
    );
  });
});

describe('serve --http with a per-user server', { timeout: 240_000 }, () => {
  test('two people call it through the process and the upstream sees each one', async () => {
    const ws = await h.workspace('per-user-http', {});
    const file = join(h.dir, 'team-http.json');
    const headers = { Authorization: `Bearer ${fx.serviceToken}` };
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { personal: { type: 'http', url: fx.mcpUrl, headers } },
        gateway: {
          auth: { issuer: idp.issuer, requiredScopes: [SCOPE] },
          upstreamAuth: { personal: { mode: 'per-user', clientId: GATEWAY_CLIENT, idpTokenEndpoint: fx.exchangeUrl } },
        },
      }),
    );
    const run = h.start(['serve', '--http', '--port', '0', '--config', file], { cwd: ws });
    child = run.child;
    let stderr = '';
    run.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const [, url, resource] = await poll(
      'the gateway to say where it listens',
      120_000,
      async () => /listening on (\S+) \(resource (\S+)\)/.exec(stderr) ?? undefined,
    );
    team.gatewayResource = resource!;
    const said: string[] = [];
    for (const person of ['alice', 'bob']) {
      const client = new Client({ name: `agent-of-${person}`, version: '1.0.0' });
      const token = await idp.tokenFor(person, resource!);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url!), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      said.push(text(await client.callTool({ name: 'personal__whoami', arguments: {} })));
      const read = await client.readResource({ uri: 'personal://me' });
      said.push(String((read.contents[0] as { text?: string }).text));
      const done = await client.complete({
        ref: { type: 'ref/prompt', name: 'personal__greet' },
        argument: { name: 'name', value: '' },
      });
      said.push(...done.completion.values);
      // The process's wiring refuses a per-user server's subscription by name.
      await assert.rejects(client.subscribeResource({ uri: 'personal://me' }), /per-user server are not offered/);
      await closeAgent(client);
    }
    assert.deepEqual(said, ['hello alice', 'the page of alice', 'alice', 'hello bob', 'the page of bob', 'bob']);
    const forwarded = fx.seen.filter((r) =>
      ['tools/call', 'resources/read', 'completion/complete'].includes(r.method ?? ''),
    );
    assert.deepEqual(
      forwarded.map((c) => `${c.method} ${c.sub}`),
      ['alice', 'bob'].flatMap((p) => [`tools/call ${p}`, `resources/read ${p}`, `completion/complete ${p}`]),
    );
    run.child.kill('SIGTERM');
    assert.equal((await withDeadline(run.exit, 'serve --http to exit', 60_000)).code, 0);
  });
});
