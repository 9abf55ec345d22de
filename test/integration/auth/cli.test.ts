/**
 * `mcp-host auth` / `logout` through runCli against the real authorization server: the browser is
 * a real process (BROWSER=a script that follows the redirects), tokens land in a 0600 file in a
 * 0700 folder, later commands use them, and logout removes them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../../src/cli/main.js';
import { capturedIo, type CapturedIo } from '../../support/cli-io.js';
import { M2M_BASIC, startOidcFixture, type OidcFixture } from './oidc-fixture.js';

let fx: OidcFixture;
let work: string;
before(async () => {
  fx = await startOidcFixture();
  work = mkdtempSync(join(tmpdir(), 'mcp-host-cli-auth-'));
});
after(async () => {
  await fx.close();
  rmSync(work, { recursive: true, force: true });
});

function io(env: Record<string, string>): CapturedIo {
  return capturedIo(work, env);
}

test(
  'mcp-host auth signs in through the browser, later commands use the token, logout forgets it',
  { timeout: 120_000 },
  async () => {
    const configDir = join(work, 'config');
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { prot: { type: 'http', url: fx.mcpUrl } } }),
    );
    const browser = join(work, 'browser.sh');
    writeFileSync(
      browser,
      `#!/bin/sh\nexec "${process.execPath}" "${resolve('test/integration/auth/browser-follow.mjs')}" "$1"\n`,
    );
    chmodSync(browser, 0o755);
    const env = { MCP_HOST_CONFIG_DIR: configDir, BROWSER: browser, MCP_HOST_BLOB_DIR: join(work, 'blobs') };

    const before = io(env);
    assert.equal(
      await runCli(['tools', 'prot', '--workspace', project], before),
      3,
      'not signed in: a connection-class failure',
    );

    const auth = io(env);
    const code = await runCli(['auth', 'prot', '--workspace', project], auth);
    assert.equal(code, 0, auth.err);
    assert.match(auth.out, /Signed in to prot/);
    assert.match(auth.err, /http:\/\/127\.0\.0\.1:\d+\/auth\?/, 'the URL is printed too');

    const secretsFile = join(configDir, 'secrets.json');
    assert.equal(statSync(configDir).mode & 0o777, 0o700);
    assert.equal(statSync(secretsFile).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>;
    // The server's entry (tokens) and its authorization server's (the registration, shared by issuer).
    const keys = Object.keys(stored).sort();
    assert.equal(keys.length, 2);
    assert.match(keys[0]!, /^mcp-host\.oauth-client\/[0-9a-f]{64}$/);
    assert.match(keys[1]!, /^mcp-host\.oauth\/prot\/[0-9a-f]{64}$/);
    const token = (JSON.parse(stored[keys[1]!]!) as { tokens: { access_token: string } }).tokens.access_token;

    const tools = io(env);
    assert.equal(await runCli(['tools', 'prot', '--workspace', project], tools), 0, tools.err);
    assert.match(tools.out, /whoami/);
    for (const text of [auth.out, auth.err, tools.out, tools.err])
      assert.ok(!text.includes(token), 'the token is never printed');

    const logout = io(env);
    assert.equal(await runCli(['logout', 'prot', '--workspace', project], logout), 0);
    assert.match(logout.out, /Signed out of prot/);
    assert.deepEqual(
      Object.keys(JSON.parse(readFileSync(secretsFile, 'utf8')) as object),
      [keys[0]],
      'registration kept',
    );

    const usage = io(env);
    assert.equal(await runCli(['auth', '--workspace', project], usage), 2, 'SERVER is required');
  },
);

test(
  'client credentials in the CLI: secret from MCP_HOST_CLIENT_SECRET into the secrets file, no browser; logout revokes',
  { timeout: 120_000 },
  async () => {
    const configDir = join(work, 'config-m2m');
    const project = join(work, 'project-m2m');
    mkdirSync(project);
    const entry = {
      type: 'http',
      url: fx.mcpUrl,
      oauth: { clientId: M2M_BASIC.clientId, grantType: 'client_credentials' },
    };
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { m2m: entry } }));
    // A browser that fails the test if anything opens it.
    const env = { MCP_HOST_CONFIG_DIR: configDir, BROWSER: '/bin/false', MCP_HOST_BLOB_DIR: join(work, 'blobs') };

    const before = io(env);
    assert.equal(await runCli(['tools', 'm2m', '--workspace', project], before), 3, before.err);
    assert.match(before.err, /client credentials|client secret/i);

    const missing = io(env);
    assert.equal(await runCli(['auth', 'm2m', '--workspace', project], missing), 2);
    assert.match(missing.err, /MCP_HOST_CLIENT_SECRET/);

    const auth = io({ ...env, MCP_HOST_CLIENT_SECRET: M2M_BASIC.clientSecret });
    assert.equal(await runCli(['auth', 'm2m', '--workspace', project], auth), 0, auth.err);
    assert.match(auth.out, /Signed in to m2m/);
    assert.doesNotMatch(auth.err, /Opening your browser/, 'no browser sign-in for a machine client');

    const tools = io(env);
    assert.equal(await runCli(['tools', 'm2m', '--workspace', project], tools), 0, tools.err);
    assert.match(tools.out, /whoami/);
    const stored = JSON.parse(readFileSync(join(configDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    const token = (JSON.parse(Object.values(stored)[0]!) as { tokens: { access_token: string } }).tokens.access_token;
    for (const text of [auth.out, auth.err, tools.out, tools.err])
      assert.ok(!text.includes(token) && !text.includes(M2M_BASIC.clientSecret));

    const logout = io(env);
    assert.equal(await runCli(['logout', 'm2m', '--workspace', project, '--json'], logout), 0, logout.err);
    assert.deepEqual(JSON.parse(logout.out), { server: 'm2m', signedOut: true, hadSession: true, revoked: true });
    assert.equal(await fx.provider.ClientCredentials.find(token), undefined, 'revoked at the authorization server');
  },
);
