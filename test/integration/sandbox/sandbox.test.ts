/**
 * Local servers under the real sandbox (bubblewrap + socat + the shared filtering proxy): what the
 * default profile refuses, that each refusal is reported, that granting it in the config works,
 * the official filesystem server confined to the workspace, and policy failing closed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { loadConfig } from '../../../src/core/config/load.js';
import { SandboxRuntime, sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { FIXTURES, MemoryLogger, ROOT, tempDir, textOf, waitFor } from '../connection/helpers.js';
import { requireSandboxTools } from '../../support/system-tool.js';

// Every suite but the last runs servers in the real sandbox; the last proves what happens without it.
const skip = requireSandboxTools();

const PROBE = path.join(FIXTURES, 'sandbox-probe.mjs');
const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

const root = tempDir('sandbox');
const home = path.join(root, 'home');
const outside = path.join(root, 'outside');
const secret = path.join(home, '.ssh', 'id_ed25519');
const projectSecret = path.join(home, 'project-token.txt');
let http: Server;
let url: string;

before(async () => {
  fs.mkdirSync(path.dirname(secret), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(secret, 'PRIVATE KEY');
  fs.writeFileSync(projectSecret, 'TOKEN');
  http = createServer((_req, res) => res.end('loopback answered'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
});
after(async () => {
  http.close();
  await sharedSandboxRuntime().dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A workspace folder with `.vscode/mcp.json` holding `servers` and a top-level `sandbox`. */
async function hostFor(
  name: string,
  servers: Record<string, unknown>,
  sandbox?: unknown,
  extra: { managed?: unknown; runtime?: SandboxRuntime } = {},
): Promise<{ host: McpHost; log: MemoryLogger; folder: string }> {
  const folder = path.join(root, name);
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(folder, '.vscode', 'mcp.json'),
    JSON.stringify({ servers, ...(sandbox ? { sandbox } : {}) }),
  );
  let managedPath: string | undefined;
  if (extra.managed) {
    managedPath = path.join(folder, 'managed.json');
    fs.writeFileSync(managedPath, JSON.stringify(extra.managed));
  }
  const loaded = await loadConfig({ folders: [folder], homeDir: home, managedPath });
  const log = new MemoryLogger();
  const host = createHost({ logger: log, blobDir: path.join(folder, 'blobs'), sandbox: extra.runtime });
  host.setDefinitions(loaded.servers);
  await host.whenSettled();
  return { host, log, folder };
}

const probe = { command: process.execPath, args: [PROBE], sandboxEnabled: true };

/** The first log line matching `re`, within a deadline (the line names what was expected). */
function logLine(log: MemoryLogger, re: RegExp, ms = 30_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no log line matching ${String(re)} within ${ms} ms`)), ms);
  });
  return Promise.race([log.nextLine(re), late]).finally(() => clearTimeout(timer));
}

async function call(host: McpHost, server: string, tool: string, args: Record<string, string>) {
  return textOf(await host.callTool(server, tool, args));
}

describe('the default profile', { skip }, () => {
  let ctx: Awaited<ReturnType<typeof hostFor>>;
  before(async () => {
    ctx = await hostFor('denied', { probe }, { filesystem: { denyRead: [projectSecret] } });
  });
  after(() => ctx.host.dispose());

  test('the server connects inside the sandbox and says so in its log', async () => {
    assert.equal(ctx.host.server('probe')!.state.kind, 'connected', JSON.stringify(ctx.host.server('probe')!.state));
    await logLine(ctx.log, /Sandboxed; Writes: .*denied; Network: registry\.npmjs\.org/);
  });

  test('a credential store and a denyRead path are hidden, and the read is reported', async () => {
    assert.match(await call(ctx.host, 'probe', 'read', { path: secret }), /^error: .*(ENOENT|EACCES)/);
    assert.match(await call(ctx.host, 'probe', 'read', { path: projectSecret }), /^error: .*(ENOENT|EACCES)/);
    await logLine(ctx.log, new RegExp(`\\[sandbox\\] blocked a read of ${projectSecret}`));
  });

  test('a write outside the workspace fails and is reported; the workspace is writable', async () => {
    const target = path.join(outside, 'x.txt');
    assert.match(await call(ctx.host, 'probe', 'write', { path: target }), /^error: .*read-only file system/i);
    assert.equal(fs.existsSync(target), false);
    await logLine(ctx.log, new RegExp(`\\[sandbox\\] blocked a write to ${target}`));
    assert.equal(await call(ctx.host, 'probe', 'write', { path: path.join(ctx.folder, 'ok.txt') }), 'ok: written');
  });

  test('a loopback HTTP server not on the allow list is refused by the proxy and reported', async () => {
    assert.match(await call(ctx.host, 'probe', 'fetch', { url }), /^error: fetch .* HTTP 403/);
    const host = new URL(url).host;
    await logLine(ctx.log, new RegExp(`\\[sandbox\\] blocked a network connection to ${host.replace('.', '\\.')}`));
    assert.ok(sharedSandboxRuntime().blockedCount('probe') >= 3, String(sharedSandboxRuntime().blockedCount('probe')));
  });
});

describe('the same server with the permissions granted', { skip }, () => {
  let ctx: Awaited<ReturnType<typeof hostFor>>;
  before(async () => {
    ctx = await hostFor(
      'granted',
      { probe: { ...probe, sandbox: { network: { allowedDomains: ['127.0.0.1'] } } } },
      { filesystem: { allowWrite: [outside] } },
    );
  });
  after(() => ctx.host.dispose());

  test('reads, writes and connects where its config allows; credential stores stay hidden', async () => {
    assert.equal(await call(ctx.host, 'probe', 'read', { path: projectSecret }), 'ok: TOKEN');
    assert.equal(await call(ctx.host, 'probe', 'write', { path: path.join(outside, 'y.txt') }), 'ok: written');
    assert.equal(fs.readFileSync(path.join(outside, 'y.txt'), 'utf8'), 'written by sandbox-probe');
    assert.equal(await call(ctx.host, 'probe', 'fetch', { url }), 'ok: loopback answered');
    assert.match(await call(ctx.host, 'probe', 'read', { path: secret }), /^error: .*(ENOENT|EACCES)/);
  });
});

describe('network rules are per server', { skip }, () => {
  let ctx: Awaited<ReturnType<typeof hostFor>>;
  before(async () => {
    // Both run at once behind the one proxy; only `a` lists the loopback host.
    ctx = await hostFor('pernet', {
      a: { ...probe, sandbox: { network: { allowedDomains: ['127.0.0.1'] } } },
      b: probe,
    });
  });
  after(() => ctx.host.dispose());

  test('a server reaches the host its rules allow; the other, running beside it, is refused', async () => {
    assert.equal(ctx.host.server('a')!.state.kind, 'connected');
    assert.equal(ctx.host.server('b')!.state.kind, 'connected');
    const before = sharedSandboxRuntime().blockedCount('a');
    assert.equal(await call(ctx.host, 'a', 'fetch', { url }), 'ok: loopback answered');
    assert.match(await call(ctx.host, 'b', 'fetch', { url }), /^error: fetch .* HTTP 403/);
    assert.equal(await call(ctx.host, 'a', 'fetch', { url }), 'ok: loopback answered');
    const host = new URL(url).host;
    await logLine(ctx.log, new RegExp(`\\[sandbox\\] blocked a network connection to ${host.replace('.', '\\.')}`));
    assert.equal(sharedSandboxRuntime().blockedCount('a'), before, 'nothing of a was refused');
    assert.equal(
      sharedSandboxRuntime()
        .recentBlocks('b')
        .some((b) => b.kind === 'network' && b.target === host),
      true,
    );
  });
});

describe('files in the workspace that act outside the sandbox', { skip }, () => {
  let ctx: Awaited<ReturnType<typeof hostFor>>;
  before(async () => {
    const folder = path.join(root, 'guarded');
    fs.mkdirSync(path.join(folder, 'nested', '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.envrc'), 'export A=1\n');
    ctx = await hostFor('guarded', { probe });
  });
  after(() => ctx.host.dispose());

  test('its MCP config, a nested git hook and .envrc are read-only; the rest of the workspace is writable', async () => {
    for (const p of ['.vscode/mcp.json', 'nested/.git/hooks/pre-commit', '.envrc']) {
      const target = path.join(ctx.folder, p);
      assert.match(await call(ctx.host, 'probe', 'write', { path: target }), /^error: .*read-only file system/i, p);
    }
    assert.match(fs.readFileSync(path.join(ctx.folder, '.vscode', 'mcp.json'), 'utf8'), /"servers"/);
    assert.equal(fs.existsSync(path.join(ctx.folder, 'nested/.git/hooks/pre-commit')), false);
    assert.equal(
      await call(ctx.host, 'probe', 'write', { path: path.join(ctx.folder, 'nested', 'ok.txt') }),
      'ok: written',
    );
  });
});

describe("the user's shell set-up", { skip }, () => {
  test('is not run around a sandboxed server (its stdio are sockets, which bash takes for rsh)', async () => {
    const fakeHome = path.join(root, 'shell-home');
    const marker = path.join(root, 'bashrc-ran.txt');
    fs.mkdirSync(fakeHome, { recursive: true });
    fs.writeFileSync(path.join(fakeHome, '.bashrc'), `echo ran >> ${marker}\n`);
    const ctx = await hostFor('shellrc', { probe: { ...probe, env: { HOME: fakeHome } } });
    try {
      assert.equal(ctx.host.server('probe')!.state.kind, 'connected', JSON.stringify(ctx.host.server('probe')!.state));
      assert.equal(await call(ctx.host, 'probe', 'write', { path: path.join(ctx.folder, 'w.txt') }), 'ok: written');
      assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
    } finally {
      await ctx.host.dispose();
    }
  });
});

describe('@modelcontextprotocol/server-filesystem sandboxed to the workspace', { skip }, () => {
  let ctx: Awaited<ReturnType<typeof hostFor>>;
  before(async () => {
    const folder = path.join(root, 'fsws');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'hello.txt'), 'hi');
    // The server itself would allow both folders; the sandbox leaves it only the workspace.
    ctx = await hostFor('fsws', {
      files: { command: process.execPath, args: [FILESYSTEM, folder, outside], sandboxEnabled: true },
    });
  });
  after(() => ctx.host.dispose());

  test('lists and writes in the workspace, and cannot write outside it', async () => {
    assert.match(await call(ctx.host, 'files', 'list_directory', { path: ctx.folder }), /hello\.txt/);
    const inWs = path.join(ctx.folder, 'new.txt');
    await call(ctx.host, 'files', 'write_file', { path: inWs, content: 'from the sandbox' });
    assert.equal(fs.readFileSync(inWs, 'utf8'), 'from the sandbox');
    const out = path.join(outside, 'fs-server.txt');
    assert.match(await call(ctx.host, 'files', 'write_file', { path: out, content: 'nope' }), /read-only file system/i);
    assert.equal(fs.existsSync(out), false);
  });
});

describe('policy requires the sandbox and it cannot start', () => {
  test('the server is failed, never started unsandboxed, and the message says what to install', async () => {
    const record = path.join(root, 'policy-record.txt');
    const unavailable = new SandboxRuntime({ path: path.join(root, 'no-such-bin') });
    const ctx = await hostFor(
      'policy',
      // No sandboxEnabled: the policy alone requires it.
      { plain: { command: process.execPath, args: [path.join(FIXTURES, 'stdio-server.mjs'), '--record', record] } },
      undefined,
      { managed: { sandboxPolicy: { required: true } }, runtime: unavailable },
    );
    try {
      const s = await waitFor(ctx.host, 'plain', (x) => x.state.kind === 'failed');
      if (s.state.kind !== 'failed') return assert.fail(JSON.stringify(s.state));
      const message = s.state.error.message;
      assert.match(message, /bubblewrap \(bwrap\)/);
      assert.match(message, /apt-get install bubblewrap socat/);
      assert.equal(fs.existsSync(record), false, 'the server process must never have started');
    } finally {
      await ctx.host.dispose();
    }
  });
});
