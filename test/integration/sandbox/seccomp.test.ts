/**
 * MCP Host's seccomp helper (core/sandbox/seccomp.ts: a nested bubblewrap loading a BPF filter built
 * in TypeScript, in place of the runtime's 0.75 MB static binary) under the real sandbox: a
 * sandboxed server cannot create a Unix socket, not even to a socket its config lets it write to;
 * its own TCP loopback and the filtering proxy still work; and it cannot change the helper that the
 * next server's sandbox runs, even where it may write the helper's parent folder.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { seccompHelperPath } from '../../../src/core/sandbox/seccomp.js';
import { tempDir } from '../connection/helpers.js';
import { call, hostWith, needsSandbox, probe, type Ctx } from './support.js';

const root = tempDir('sandbox-seccomp');
// A Unix socket path has at most 107 bytes: a short folder of its own.
const sockets = fs.mkdtempSync('/tmp/mcp-sock-');
const sock = path.join(sockets, 'echo.sock');
let unixEcho: Server;
let http: HttpServer;
let url: string;

describe('the seccomp filter in the sandbox', { skip: needsSandbox() }, () => {
  let ctx: Ctx;
  const helper = seccompHelperPath();
  before(async () => {
    unixEcho = createServer((s) => s.pipe(s));
    await new Promise<void>((r) => unixEcho.listen(sock, r));
    http = createHttpServer((_req, res) => res.end('loopback answered'));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    const granted = {
      ...probe,
      sandbox: {
        network: { allowedDomains: ['127.0.0.1'] },
        // Writable for it: the socket's folder (a Unix socket connect needs write access to the
        // socket) and the seccomp helper's parent folder.
        filesystem: { allowWrite: [sockets, path.dirname(path.dirname(helper!))] },
      },
    };
    ctx = await hostWith({ root, name: 'ws', home: path.join(root, 'home'), servers: { probe: granted } });
  });
  after(async () => {
    await ctx?.host.dispose();
    await sharedSandboxRuntime().dispose();
    unixEcho?.close();
    http?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(sockets, { recursive: true, force: true });
  });

  test('runs MCP Host’s helper, not the runtime’s binary', () => {
    assert.ok(helper, 'a seccomp helper for this CPU');
    assert.match(fs.readFileSync(helper, 'utf8'), /^#!\/bin\/sh\n[^]*--seccomp 3/);
  });

  test('a Unix socket cannot be created, though the host end listens and the path is writable', async () => {
    assert.equal(ctx.host.server('probe')!.state.kind, 'connected', JSON.stringify(ctx.host.server('probe')!.state));
    assert.match(await call(ctx.host, 'probe', 'unix-socket', { path: sock }), /^error: unix socket .*EPERM/);
  });

  test('TCP over the sandbox’s own loopback and through the proxy still works', async () => {
    assert.equal(await call(ctx.host, 'probe', 'tcp-loopback', {}), 'ok: echoed');
    assert.equal(await call(ctx.host, 'probe', 'fetch', { url }), 'ok: loopback answered');
  });

  test('the helper stays read-only for a server allowed to write its parent folder', async () => {
    assert.match(await call(ctx.host, 'probe', 'write', { path: helper! }), /^error: .*read-only file system/i);
    assert.match(fs.readFileSync(helper!, 'utf8'), /^#!\/bin\/sh/);
  });
});
