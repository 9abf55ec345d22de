/**
 * MCP Host's seccomp helper (core/sandbox/seccomp.ts: a nested bubblewrap loading a BPF filter built
 * in TypeScript, in place of the runtime's 0.75 MB static binary) under the real sandbox: a
 * sandboxed server cannot create a Unix socket, not even to a socket its config lets it write to;
 * its own TCP loopback and the filtering proxy still work; and it cannot change the helper that the
 * next server's sandbox runs, even where it may write the helper's parent folder.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { SandboxPlan } from '../../../src/core/config/index.js';
import { HOST_PATH, findOn } from '../../../src/core/sandbox/host-env.js';
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

// Each rule of the filter, from a process the sandbox runs (Python's ctypes reaches the raw
// syscalls): socket(AF_UNIX) and io_uring_setup fail with EPERM, AF_INET works, and on x86_64 a
// syscall of the x32 ABI (bit 30 of its number) kills the process that makes it.
const python = findOn('python3', HOST_PATH);
const PY = `import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
out = []
try:
    socket.socket(socket.AF_UNIX); out.append("unix ok")
except PermissionError:
    out.append("unix EPERM")
socket.socket(socket.AF_INET).close(); out.append("inet ok")
r = libc.syscall(425, 1, ctypes.c_void_p(0))
out.append("io_uring " + ("EPERM" if r == -1 and ctypes.get_errno() == errno.EPERM else str(r)))
pid = os.fork()
if pid == 0:
    libc.syscall(41 | 0x40000000, 1, 1, 0)
    os._exit(0)
out.append("x32 " + ("killed" if os.WIFSIGNALED(os.waitpid(pid, 0)[1]) else "ran"))
print(" ".join(out))
`;

describe(
  'the filter, rule by rule, from Python in the sandbox',
  { skip: needsSandbox() || (!python && 'python3 not in ' + HOST_PATH) },
  () => {
    after(() => sharedSandboxRuntime().dispose());

    test('AF_UNIX and io_uring fail with EPERM, AF_INET works, an x32 syscall is fatal', async () => {
      const plan: SandboxPlan = {
        filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
        network: { allowedDomains: [], deniedDomains: [] },
        by: 'config',
      };
      const w = await sharedSandboxRuntime().wrap('py', plan, { file: python!, args: ['-c', PY] });
      try {
        const r = spawnSync(w.spec.file, w.spec.args, { env: w.env, encoding: 'utf8', timeout: 60_000 });
        assert.equal(r.status, 0, r.stderr);
        // On arm64 that number is no syscall at all (ENOSYS): only x86_64's filter knows the x32 ABI.
        const out = r.stdout.trim();
        assert.equal(
          process.arch === 'x64' ? out : out.replace(/ x32 \w+$/, ''),
          `unix EPERM inet ok io_uring EPERM${process.arch === 'x64' ? ' x32 killed' : ''}`,
        );
      } finally {
        w.release();
      }
    });
  },
);
