/**
 * The CLI on both protocol eras: `list` shows each server's protocol version (text and --json),
 * `doctor` names it, and `call` reaches tools of SDK v2 servers on 2026-07-28 over stdio and over
 * Streamable HTTP (modern only, `legacy: 'reject'`), beside server-everything on 2025-11-25.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { EVERYTHING, ROOT, createHarness, type Harness } from './harness.js';
import { startPortServer, type RunningServer } from '../connection/helpers.js';
import { serverScript } from '../../support/fixture-servers.js';

const MODERN = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'modern-server.mjs'));
let h: Harness;
let ws: string;
let http: RunningServer;

before(async () => {
  h = await createHarness();
  http = await startPortServer('modern-server.mjs', ['--http', '--legacy', 'reject'], '/mcp');
  ws = await h.workspace('eras', {
    legacy: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    local: { command: process.execPath, args: [MODERN] },
    remote: { type: 'http', url: http.url },
  });
});

after(async () => {
  await h?.dispose();
  await http?.stop();
});

describe('protocol eras in the CLI', () => {
  test('list --json has protocolVersion per server; the text output shows it in the state', async () => {
    const r = await h.run(['list', '--json'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as { name: string; state: string; protocolVersion?: string }[];
    const version = Object.fromEntries(rows.map((x) => [x.name, `${x.state} ${x.protocolVersion}`]));
    assert.deepEqual(version, {
      legacy: 'connected 2025-11-25',
      local: 'connected 2026-07-28',
      remote: 'connected 2026-07-28',
    });
    const text = await h.run(['list'], { cwd: ws });
    assert.match(text.stdout, /^remote\s+http\s.*connected \(\d+ ms, MCP 2026-07-28\)/m);
    assert.match(text.stdout, /^legacy\s+stdio\s.*connected \(\d+ ms, MCP 2025-11-25\)/m);
  });

  test('call reaches a modern server over stdio and over HTTP; doctor names the protocol', async () => {
    for (const server of ['local', 'remote']) {
      const r = await h.run(['call', server, 'era'], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'modern');
      const echo = await h.run(['call', server, 'echo', '--args', '{"text":"hi"}'], { cwd: ws });
      assert.equal(echo.stdout.trim(), 'hi');
    }
    const d = await h.run(['doctor'], { cwd: ws });
    assert.match(d.stdout, /protocol: MCP 2026-07-28/);
    assert.match(d.stdout, /protocol: MCP 2025-11-25/);
  });
});
