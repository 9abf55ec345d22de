// The CLI as an npm package (scripts/pack-cli.mjs, `npm run pack:cli`): packed from the run's
// production build, installed offline with `npm install -g` into an empty prefix, where nothing else
// is (no node_modules, no checkout), it prints its version, runs doctor and serves a fixture server
// to a real SDK client over stdio. The package stays small and holds only what the CLI runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { untilTools } from './gateway/helpers.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { shippedBuild } from '../support/shipped-build.js';
import { STDIO_FIXTURE } from './connection/helpers.js';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const MAX_BYTES = 2 * 1024 * 1024;

const own = mkdtempSync(join(tmpdir(), 'mcp-host-cli-package-'));
const prefix = join(own, 'prefix');
const home = join(own, 'home');
let tarball = '';
let bin = '';
// Outside the checkout, with a PATH of node's folder and the system's only: nothing of this repository's to lean on.
const env = {
  PATH: `${join(prefix, 'bin')}:${join(process.execPath, '..')}:/usr/bin:/bin`,
  HOME: home,
  MCP_HOST_HOME: join(home, '.mcp-host'),
  MCP_HOST_CONFIG_DIR: join(home, '.config', 'mcp-host'),
  npm_config_cache: join(own, 'npm-cache'),
};

before(async () => {
  mkdirSync(home, { recursive: true });
  const { dist } = await shippedBuild();
  const { packCli } = (await import(join(ROOT, 'scripts', 'pack-cli.mjs'))) as {
    packCli: (o: { dist: string; out: string }) => string;
  };
  tarball = packCli({ dist, out: join(own, 'packed') });
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  execFileSync(
    npm[0]!,
    [...npm.slice(1), 'install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball],
    {
      cwd: own,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  bin = join(prefix, 'bin', 'mcp-host');
});
after(() => rmSync(own, { recursive: true, force: true }));

test('the package is named by the version, at most 2 MB, and holds only what the CLI runs', () => {
  assert.match(tarball, new RegExp(`mcp-host-${VERSION.replace(/\./g, '\\.')}\\.tgz$`));
  const size = statSync(tarball).size;
  assert.ok(size <= MAX_BYTES, `${tarball} is ${size} bytes, over ${MAX_BYTES}`);
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(
    files.filter((f) => /\.map$|extension\.js|ext-apps-bridge|fixtures|\/src\/|\/test\//.test(f)),
    [],
    'no source maps, extension bundle, app bridge, sources or fixtures',
  );
  for (const f of [
    'package/cli.js',
    'package/sandbox-runtime.js',
    'package/redis-client.js',
    'package/package.json',
    'package/README.md',
  ])
    assert.ok(files.includes(f), `${f} missing from ${files.join(', ')}`);
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as {
    bin: Record<string, string>;
    dependencies?: unknown;
  };
  assert.deepEqual(manifest.bin, { 'mcp-host': 'cli.js' });
  assert.equal(manifest.dependencies, undefined, 'cli.js is bundled: nothing to install beside it');
});

test('installed globally in an empty prefix, it prints its version and runs doctor', () => {
  assert.equal(execFileSync(bin, ['--version'], { cwd: home, env, encoding: 'utf8' }).trim(), VERSION);
  const ws = join(own, 'doctor-ws');
  mkdirSync(ws, { recursive: true });
  const out = execFileSync(bin, ['--workspace', ws, 'doctor'], { cwd: ws, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(out.split('\n')[0], `mcp-host ${VERSION}`);
  assert.match(out, /^sandbox: /m);
  assert.match(out, /no servers to check/);
});

test('the installed serve lists and calls the tools of a server from --config for an SDK client over stdio', async () => {
  const config = join(own, 'servers.mcp.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [STDIO_FIXTURE] } } }),
  );
  const ws = join(own, 'serve-ws');
  mkdirSync(ws, { recursive: true });
  const client = new Client({ name: 'cli-package-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: bin, args: ['--config', config, 'serve'], cwd: ws, env, stderr: 'pipe' }),
  );
  try {
    // serve answers before its server has connected: wait for its tools as a list_changed agent would.
    const names = await untilTools(client, (n) => n.includes('fixture__echo'), 'the fixture listed');
    assert.ok(names.includes('fixture__echo'), names.join(', '));
    const r = await client.callTool({ name: 'fixture__echo', arguments: { text: 'from the package' } });
    assert.deepEqual(r.content, [{ type: 'text', text: 'echo: from the package' }]);
  } finally {
    await client.close();
  }
});
