// The CLI as a client of a team gateway: a real `mcp-host serve --http` process in front of two
// servers, signing people in with the real authorization server (oidc-provider); a managed file
// (or, for a team without one, the user's mcpHost.teamGateway setting) names the gateway, and
// `mcp-host list`, `auth`, `tools` and `call` reach its servers as the gateway's, grouped by the
// upstream server each tool comes from, after one browser sign-in (BROWSER = a script that follows
// the redirects), the tokens in the CLI's own 0600 store.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHarness, ROOT, type Harness } from '../../cli/harness.js';
import { serverScript } from '../../../support/fixture-servers.js';
import { poll } from '../../../support/poll.js';
import { withDeadline } from '../../../support/wait.js';
import { SCOPE, startTeamIdp, type TeamIdp } from './team-idp.js';
import { gatewayPathEnv } from '../../../support/gateway-path.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
let h: Harness;
let idp: TeamIdp;
let gateway: ChildProcess | undefined;
let url = '';

before(async () => {
  [h, idp] = await Promise.all([createHarness(), startTeamIdp()]);
  const config = join(h.dir, 'gateway.json');
  const server = (name: string) => ({ command: process.execPath, args: [STDIO, '--name', name] });
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: server('alpha'), beta: server('beta'), gamma: server('gamma') },
      gateway: {
        auth: { issuer: idp.issuer, requiredScopes: [SCOPE] },
        // The browser sign-in is dana's, in engineering: alpha and beta, not the ops server.
        profiles: {
          eng: { servers: ['alpha', 'beta'], groups: ['engineering'] },
          ops: { servers: ['gamma'], groups: ['ops'] },
        },
      },
    }),
  );
  const operator = join(h.dir, 'operator');
  mkdirSync(operator);
  const proc = spawn(process.execPath, [h.cli, 'serve', '--http', '--port', '0', '--config', config], {
    cwd: operator,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: operator,
      MCP_HOST_BLOB_DIR: join(operator, 'blobs'),
      ...gatewayPathEnv(),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  gateway = proc;
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  url = (await poll(
    'the team gateway to say where it listens',
    60_000,
    async () => /listening on (\S+)/.exec(stderr)?.[1],
  ))!;
  const origin = new URL(url).origin;
  await poll('the team gateway to be ready', 60_000, async () =>
    (await fetch(`${origin}/readyz`)).status === 200 ? true : undefined,
  );
});

after(async () => {
  if (gateway && gateway.exitCode === null) {
    const exited = new Promise((resolve) => gateway!.once('exit', resolve));
    gateway.kill('SIGTERM');
    await withDeadline(exited, 'the team gateway to drain and exit', 30_000).catch(() => gateway!.kill('SIGKILL'));
  }
  await idp?.close();
  await h?.dispose();
});

/** A person's machine: a folder to work in, their own CLI config folder, a browser that signs in. */
function developer(name: string): { ws: string; env: Record<string, string> } {
  const home = join(h.dir, name);
  const ws = join(home, 'project');
  mkdirSync(ws, { recursive: true });
  const browser = join(home, 'browser.sh');
  writeFileSync(
    browser,
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'test/integration/auth/browser-follow.mjs')}" "$1"\n`,
  );
  chmodSync(browser, 0o755);
  return { ws, env: { HOME: home, MCP_HOST_CONFIG_DIR: join(home, 'config'), BROWSER: browser } };
}

describe('the CLI as a client of a team gateway', { timeout: 240_000 }, () => {
  test('a managed teamGateway: list says sign in, one auth, then tools (grouped) and call through the gateway', async () => {
    const me = developer('dana');
    const managed = join(h.dir, 'managed.json');
    writeFileSync(managed, JSON.stringify({ teamGateway: { url, name: 'Acme Tools' } }));
    const env = { ...me.env, MCP_HOST_MANAGED_CONFIG: managed };

    const before = await h.run(['list', '--json'], { cwd: me.ws, env });
    assert.equal(before.code, 0, before.stderr);
    const row = (JSON.parse(before.stdout) as Record<string, unknown>[]).find((r) => r.name === 'acme-tools');
    assert.ok(row, before.stdout);
    assert.equal(row.scope, 'managed');
    assert.deepEqual(row.teamGateway, { displayName: 'Acme Tools' });
    assert.equal(row.state, 'needs-auth');

    const auth = await h.run(['auth', 'acme-tools'], { cwd: me.ws, env });
    assert.equal(auth.code, 0, auth.stderr);
    assert.match(auth.stdout, /Signed in to acme-tools/);
    assert.match(auth.stderr, new RegExp(`${idp.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/auth\\?`));

    const tools = await h.run(['tools', 'acme-tools', '--json'], { cwd: me.ws, env });
    assert.equal(tools.code, 0, tools.stderr);
    const listed = JSON.parse(tools.stdout) as { name: string; upstream?: { server: string; tool: string } }[];
    const names = listed.map((t) => t.name);
    assert.ok(names.includes('alpha__echo') && names.includes('beta__echo'), names.join());
    assert.ok(!names.some((n) => n.startsWith('gamma__')), `the ops server is not dana's: ${names.join()}`);
    assert.deepEqual(listed.find((t) => t.name === 'beta__echo')?.upstream, { server: 'beta', tool: 'echo' });
    const table = await h.run(['tools', 'acme-tools'], { cwd: me.ws, env });
    assert.match(table.stdout, /acme-tools › alpha\s+alpha__echo/);

    const call = await h.run(['call', 'acme-tools', 'beta__echo', '--args', '{"text":"through the gateway"}'], {
      cwd: me.ws,
      env,
    });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /echo: through the gateway/);

    const secrets = readFileSync(join(me.env.MCP_HOST_CONFIG_DIR!, 'secrets.json'), 'utf8');
    assert.match(secrets, /mcp-host\.oauth\/acme-tools\//, 'the token is in the CLI’s own store');
    for (const out of [auth.stdout, auth.stderr, tools.stdout, call.stdout, call.stderr])
      assert.doesNotMatch(out, /eyJ[\w-]{20,}\./, 'no token printed');
  });

  test('without managed policy, the user’s mcpHost.teamGateway setting names it; a managed one replaces it', async () => {
    const me = developer('erin');
    const settings = join(h.dir, 'erin', 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'mcpHost.teamGateway': { url, name: 'My Team' } }));
    const mine = await h.run(['list', '--json', '--user-settings', settings], { cwd: me.ws, env: me.env });
    assert.equal(mine.code, 0, mine.stderr);
    const rows = JSON.parse(mine.stdout) as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((r) => [r.name, r.scope, r.state]),
      [['my-team', 'user', 'needs-auth']],
    );

    const managed = join(h.dir, 'erin', 'managed.json');
    writeFileSync(managed, JSON.stringify({ teamGateway: { url, name: 'Acme Tools' } }));
    const both = await h.run(['list', '--json', '--user-settings', settings], {
      cwd: me.ws,
      env: { ...me.env, MCP_HOST_MANAGED_CONFIG: managed },
    });
    assert.deepEqual(
      (JSON.parse(both.stdout) as Record<string, unknown>[]).map((r) => r.name),
      ['acme-tools'],
    );
    assert.match(both.stderr, /mcpHost\.teamGateway is ignored: the managed policy names the team gateway/);
  });
});
