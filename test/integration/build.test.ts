import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { PipeTransport } from '../../src/core/apps/transport.js';

// ESM-only package, loaded with import() from this CommonJS test.
import type { App } from '@modelcontextprotocol/ext-apps' with { 'resolution-mode': 'import' };
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { pipeOf } from './apps/message-pipe.js';
import { shareSdkWithBridge } from '../../src/core/apps/load-bridge.js';
import { shippedBuild } from '../support/shipped-build.js';
import { requireSandboxTools } from '../support/system-tool.js';

// The run's production build (test/support/shipped-build.ts), made into a new folder, not dist/:
// package.test.ts copies it into dist/ for its .vsix while this file runs beside it. That build is
// shared with other files, so what this file writes goes to a folder of its own.
let out = '';
const own = mkdtempSync(join(tmpdir(), 'mcp-host-build-'));
after(() => rmSync(own, { recursive: true, force: true }));
async function build(): Promise<void> {
  out ||= (await shippedBuild()).dist;
}

test('the bundle builds from an empty folder and the CLI prints its version', async () => {
  await build();
  // The extension's feature bundles beside extension.js (scripts/lib/lazy-bundles.mjs).
  const bundles = ['apps', 'cli', 'ext-apps-bridge', 'extension', 'gateway', 'ide', 'lazy-shared', 'redis-client']
    .concat(['registry', 'sandbox-runtime', 'workbench', 'ws-socket'])
    .flatMap((b) => [`${b}.js`, `${b}.js.map`]);
  assert.deepEqual(readdirSync(out).sort(), [...bundles, 'vendor'].sort());
  const version = execFileSync(process.execPath, [join(out, 'cli.js'), '--version'], { encoding: 'utf8' });
  assert.match(version, /^\d+\.\d+\.\d+/);
});

// The bridge bundle takes the SDK and zod from the process that loads it (esbuild.config.mjs,
// core/apps/load-bridge.ts); this proves what ships still speaks to the official app side.
test('the bundled MCP Apps bridge (dist/ext-apps-bridge.js) completes the handshake and serves a tool call', async () => {
  await build();
  shareSdkWithBridge();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AppBridge: Bridge } = require(join(out, 'ext-apps-bridge.js')) as {
    AppBridge: typeof AppBridge;
  };
  const { App: AppClass } = (await import('@modelcontextprotocol/ext-apps')) as { App: typeof App };
  const { port1, port2 } = new MessageChannel();
  const bridge = new Bridge(
    null,
    { name: 'build-test-host', version: '0.0.0' },
    { serverTools: {} },
    { hostContext: { theme: 'dark' } },
  );
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  bridge.oncalltool = async (params) => ({ content: [{ type: 'text', text: `called ${params.name}` }] });
  await bridge.connect(new PipeTransport(pipeOf(port1)));
  const app = new AppClass({ name: 'build-test-app', version: '1.0.0' }, {}, { autoResize: false });
  try {
    await app.connect(new PipeTransport(pipeOf(port2)));
    await initialized;
    assert.equal(app.getHostContext()?.theme, 'dark');
    const result = await app.callServerTool({ name: 'echo', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'called echo' }]);
  } finally {
    await app.close().catch(() => {});
    await bridge.close().catch(() => {});
    port1.close();
    port2.close();
  }
});

// One protocol stack: the 1.x SDK left with the move to v2 (its maintenance line has no 2026-07-28),
// and no v2 package may come in twice (a nested copy at another version beside the hoisted one).
test('the bundles hold the MCP SDK v2 only, each package from one place', async () => {
  await build();
  for (const file of ['extension.js', 'cli.js', 'ext-apps-bridge.js']) {
    const { sources } = JSON.parse(readFileSync(join(out, `${file}.map`), 'utf8')) as { sources: string[] };
    const sdk = sources.filter((s) => /node_modules\/@modelcontextprotocol\//.test(s));
    // The bridge carries ext-apps alone: its SDK is extension.js's (bundle-copies.test.ts).
    if (file === 'ext-apps-bridge.js')
      assert.deepEqual(
        sdk.filter((s) => !s.includes('/@modelcontextprotocol/ext-apps/')),
        [],
        `${file} bundles an SDK of its own`,
      );
    else assert.ok(sdk.length > 0, `${file} bundles the SDK`);
    assert.deepEqual(
      sdk.filter((s) => s.includes('/@modelcontextprotocol/sdk/')),
      [],
      `${file} holds the 1.x SDK`,
    );
    const places = new Map<string, Set<string>>();
    for (const s of sdk) {
      const m = /^(.*node_modules\/@modelcontextprotocol\/([^/]+))\//.exec(s)!;
      places.set(m[2]!, (places.get(m[2]!) ?? new Set()).add(m[1]!));
    }
    for (const [name, dirs] of places)
      assert.equal(dirs.size, 1, `${file}: @modelcontextprotocol/${name} from ${[...dirs].join(', ')}`);
  }
});

// sandbox-runtime.js leaves node-forge out (esbuild.config.mjs `noForge`: only the runtime's TLS
// termination uses it, which MCP Host never turns on); what ships must still load and sandbox a server.
test('the bundled sandbox runtime holds no node-forge and the built CLI runs a server in its sandbox', async (t) => {
  const missing = requireSandboxTools();
  if (missing) return t.skip(missing);
  await build();
  const { sources } = JSON.parse(readFileSync(join(out, 'sandbox-runtime.js.map'), 'utf8')) as { sources: string[] };
  assert.ok(
    sources.some((s) => s.includes('/@anthropic-ai/sandbox-runtime/')),
    'sandbox-runtime.js bundles the runtime',
  );
  assert.deepEqual(
    sources.filter((s) => s.includes('/node-forge/')),
    [],
    'sandbox-runtime.js bundles node-forge',
  );
  const folder = join(own, 'sandboxed');
  const home = join(own, 'home');
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  const probe = join(__dirname, '..', 'fixtures', 'servers', 'sandbox-probe.mjs');
  writeFileSync(
    join(folder, '.mcp.json'),
    JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [probe], sandboxEnabled: true } } }),
  );
  // The folder is this test's own: its server starts without the approval a cloned repository's needs.
  const env = {
    ...process.env,
    HOME: home,
    MCP_HOST_HOME: join(home, '.mcp-host'),
    MCP_HOST_ALLOW_PROJECT_SERVERS: '1',
  };
  const call = (path: string, tool = 'read') =>
    execFileSync(
      process.execPath,
      [join(out, 'cli.js'), '--workspace', folder, 'call', 'probe', tool, '--args', JSON.stringify({ path })],
      { encoding: 'utf8', env, timeout: 60_000 },
    );
  // The sandbox hides the credential stores: the same read works from the workspace.
  writeFileSync(join(folder, 'note.txt'), 'in the workspace');
  assert.match(call(join(folder, 'note.txt')), /ok: in the workspace/);
  assert.match(call(join(home, '.ssh', 'id_ed25519')), /error: /);
  // The seccomp helper the build wrote (dist/vendor/seccomp, core/sandbox/seccomp.ts) refuses to
  // create a Unix socket (socket(2) fails before any connect: this process, blocked in execFileSync,
  // never answers on its end).
  const sockets = mkdtempSync('/tmp/mcp-build-sock-');
  const echo = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo.listen(join(sockets, 's'), r));
  try {
    assert.match(call(join(sockets, 's'), 'unix-socket'), /error: unix socket .*EPERM/);
  } finally {
    echo.close();
    rmSync(sockets, { recursive: true, force: true });
  }
});

// A package built for another CPU has no seccomp helper for this one: the runtime still sandboxes,
// without that layer, and only warns in a log nobody reads. The built CLI's doctor must say it.
test('without the seccomp helper for this CPU, the built CLI says the sandbox runs weaker; with it, not', async (t) => {
  const missing = requireSandboxTools();
  if (missing) return t.skip(missing);
  await build();
  const bare = join(own, 'no-seccomp');
  cpSync(out, bare, { recursive: true, filter: (src) => !src.startsWith(join(out, 'vendor', 'seccomp')) });
  // The runtime looks for a global install of itself next (npm root -g, then fixed places): none may hold one.
  const prefix = join(own, 'npm-prefix');
  mkdirSync(prefix, { recursive: true });
  const home = join(own, 'doctor-home');
  mkdirSync(home, { recursive: true });
  for (const d of ['/usr/lib', '/usr/local/lib'])
    assert.ok(
      !existsSync(join(d, 'node_modules', '@anthropic-ai', 'sandbox-runtime')),
      `a global sandbox-runtime in ${d} would hide the missing helper`,
    );
  const folder = join(own, 'doctor-workspace');
  mkdirSync(folder, { recursive: true });
  const env = { ...process.env, HOME: home, MCP_HOST_HOME: join(home, '.mcp-host'), NPM_CONFIG_PREFIX: prefix };
  const doctor = (dir: string) =>
    execFileSync(process.execPath, [join(dir, 'cli.js'), '--workspace', folder, 'doctor'], {
      encoding: 'utf8',
      env,
      timeout: 60_000,
    });
  const weaker = doctor(bare);
  assert.match(weaker, /sandbox: works here/);
  assert.match(weaker, /! weaker than it should be: seccomp not available/);
  const whole = doctor(out);
  assert.match(whole, /sandbox: works here/);
  assert.doesNotMatch(whole, /weaker/);
});

// The feature bundles take extension.js's modules from the registry it fills (scripts/lib/lazy-bundles.mjs):
// each loads after it and hands out its entry's exports; before it, a stand-in names what is missing.
test('each feature bundle loads after extension.js and exports its entry; alone it says what it needs', async () => {
  await build();
  // `vscode` as a stand-in: every top-level name the API declares (bundles copy a namespace's own names),
  // each a value whose every property, call and `new` is another stand-in; enough to load the modules.
  const dts = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = [
    ...new Set([...dts.matchAll(/^\texport (?:namespace|enum|class|const|let|function) (\w+)/gm)].map((m) => m[1])),
  ];
  const vscode = `const mk=()=>new Proxy(function(){},{get:(t,k)=>k===Symbol.toPrimitive?()=>0:mk(),apply:()=>mk(),construct:()=>mk()});const api=Object.fromEntries(${JSON.stringify(names)}.map((n)=>[n,mk()]));const M=require('module');const o=M.prototype.require;M.prototype.require=function(id){return id==='vscode'?api:o.apply(this,arguments)};`;
  const load = (code: string): string =>
    execFileSync(process.execPath, ['-e', `${vscode}${code}`], { cwd: out, encoding: 'utf8', stdio: 'pipe' });
  const exportsOf = (bundle: string): string[] =>
    JSON.parse(load(`require('./extension.js');console.log(JSON.stringify(Object.keys(require('./${bundle}'))))`));
  assert.ok(exportsOf('gateway.js').includes('startGatewayIntegration'));
  assert.ok(exportsOf('ide.js').includes('startIdeIntegration'));
  assert.ok(exportsOf('workbench.js').includes('registerInspector'));
  assert.ok(exportsOf('registry.js').includes('browseRegistry'));
  assert.ok(exportsOf('apps.js').includes('AppsController'));
  assert.ok(exportsOf('ws-socket.js').includes('WebSocket'));
  assert.throws(() => load(`require('./gateway.js')`), /is extension\.js's: it must be loaded first/);
});
