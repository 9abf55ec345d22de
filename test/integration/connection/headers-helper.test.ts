// headersHelper against a real Streamable HTTP server whose token rotates: the helper runs at
// connect and again on 401; a helper that fails, hangs or prints garbage fails only its own server,
// with a message that quotes none of its output.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { redactString } from '../../../src/core/redact.js';
import { MemoryLogger, def, startPortServer, tempDir, textOf, waitFor, type RunningServer } from './helpers.js';

const dir = tempDir('headers-helper');
const servers: RunningServer[] = [];
const hosts: McpHost[] = [];
const tokenFile = path.join(dir, 'token');
const runsFile = path.join(dir, 'runs');
const helperScript = path.join(dir, 'helper.mjs');
fs.writeFileSync(
  helperScript,
  `import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(runsFile)}, 'run\\n');
process.stdout.write(JSON.stringify({ 'x-token': readFileSync(${JSON.stringify(tokenFile)}, 'utf8').trim() }));
`,
);
const helperCommand = `"${process.execPath}" "${helperScript}"`;
const runs = (): number => (fs.existsSync(runsFile) ? fs.readFileSync(runsFile, 'utf8').split('\n').length - 1 : 0);

function newHost(logger = new MemoryLogger()): McpHost {
  const host = createHost({ logger, blobDir: dir, env: {} });
  hosts.push(host);
  return host;
}

after(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  await Promise.all(servers.map((s) => s.stop()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('headersHelper', () => {
  test('its headers go on every request; a rotated token (401) runs it again and the call succeeds; the value is never logged', async () => {
    fs.writeFileSync(tokenFile, 'tok-first-0123456789');
    const srv = await startPortServer('http-server.mjs', ['--token-file', tokenFile], '/mcp');
    servers.push(srv);
    const logger = new MemoryLogger();
    const host = newHost(logger);
    host.setDefinitions([def('h', { type: 'http', url: srv.url, headersHelper: helperCommand })]);
    await waitFor(host, 'h', (s) => s.state.kind === 'connected', 30_000);
    assert.equal(runs(), 1);
    const first = JSON.parse(textOf(await host.callTool('h', 'headers', {}))) as Record<string, string>;
    assert.equal(first['x-token'], 'tok-first-0123456789');

    fs.writeFileSync(tokenFile, 'tok-second-9876543210');
    const second = JSON.parse(textOf(await host.callTool('h', 'headers', {}))) as Record<string, string>;
    assert.equal(second['x-token'], 'tok-second-9876543210');
    assert.equal(runs(), 2);
    assert.equal(host.server('h')?.state.kind, 'connected');

    const logged = logger.lines.join('\n');
    assert.ok(!logged.includes('tok-first-0123456789') && !logged.includes('tok-second-9876543210'), logged);
    // Redaction learned the values: any later text that repeats them is scrubbed.
    assert.equal(redactString('echo tok-second-9876543210'), 'echo [redacted]');
  });

  test('a helper that fails, hangs, prints garbage or too much: that server is failed with a clear error; a neighbour connects', async () => {
    const srv = await startPortServer('http-server.mjs', [], '/mcp');
    servers.push(srv);
    const host = newHost();
    const bad = {
      exits: 'exit 3',
      hangs: `"${process.execPath}" -e "setInterval(() => {}, 1000)"`,
      garbage: 'echo sk-live-garbage-secret-123',
      array: `echo '["x"]'`,
      huge: `"${process.execPath}" -e "process.stdout.write('x'.repeat(200000))"`,
      badHeader: `echo '{"x-ok": "1", "bad name": "v"}'`,
    };
    host.setDefinitions([
      ...Object.entries(bad).map(([name, cmd]) =>
        def(name, { type: 'http', url: srv.url, headersHelper: cmd, ...(name === 'hangs' ? { timeout: 1500 } : {}) }),
      ),
      def('neighbour', { type: 'http', url: srv.url }),
    ]);
    await waitFor(host, 'neighbour', (s) => s.state.kind === 'connected', 30_000);
    const expected: Record<string, RegExp> = {
      exits: /headersHelper exited with code 3/,
      hangs: /headersHelper did not finish within 2 s; it was stopped/,
      garbage: /headersHelper did not print JSON/,
      array: /printed JSON that is not an object of headers/,
      huge: /printed more than 65536 bytes/,
      badHeader: /1 header\(s\) that are not a valid name.*"bad name"/,
    };
    for (const [name, re] of Object.entries(expected)) {
      const s = await waitFor(host, name, (x) => x.state.kind === 'failed', 30_000);
      assert.ok(s.state.kind === 'failed');
      assert.match(s.state.error.message, re, name);
      assert.equal(s.state.error.code, 'headers-helper');
      assert.ok(!JSON.stringify(s.state).includes('sk-live-garbage-secret-123'));
    }
  });
});
