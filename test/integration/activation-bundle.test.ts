// What activation loads (scripts/lib/deferred-modules.mjs): extension.js holds the host, the tree and
// the palette; the SDK client and its protocol core, zod, Ajv, jose, the transports and the OAuth
// flows are sdk.js's, loaded the first time activation code reads one of their names. These check
// the production build: its metafile, and its bundles run in Node with `vscode` a stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedBuild } from '../support/shipped-build.js';
import { vscodeStub } from '../support/vscode-stub.js';

type Metafile = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };

/** The inputs an output holds code of, stand-ins for another bundle's modules aside. */
async function codeOf(file: string): Promise<string[]> {
  const { meta } = await shippedBuild();
  const m = JSON.parse(readFileSync(join(meta, `${file}.json`), 'utf8')) as Metafile;
  const [, out] = Object.entries(m.outputs).find(([f]) => !f.endsWith('.map'))!;
  return Object.entries(out.inputs)
    .filter(([k, v]) => v.bytesInOutput > 0 && !k.startsWith('host-module:'))
    .map(([k]) => k);
}

const HEAVY = /^node_modules\/(@modelcontextprotocol\/(client|core)|zod|ajv|ajv-formats|jose)\/|^sdk-core:/;

test('extension.js holds none of the SDK client, its core, zod, Ajv or jose; sdk.js holds them', async () => {
  const main = await codeOf('extension.js');
  assert.deepEqual(
    main.filter((k) => HEAVY.test(k)),
    [],
    'extension.js carries what waits for the first connect',
  );
  // Of the packages, only the JSONC parser the config files are read with.
  const packages = new Set(main.filter((k) => k.startsWith('node_modules/')).map((k) => k.split('/')[1]));
  assert.deepEqual([...packages], ['jsonc-parser']);
  for (const own of ['src/core/connection/host-client.ts', 'src/core/config/entry-schema.ts'])
    assert.ok(!main.includes(own), `${own} is in extension.js`);
  assert.ok(main.includes('src/core/config/entry-check.ts') && main.includes('src/extension/tree/provider.ts'));
  const sdk = await codeOf('sdk.js');
  for (const pkg of ['@modelcontextprotocol/client', 'zod', 'ajv', 'jose'])
    assert.ok(
      sdk.some((k) => k.startsWith(`node_modules/${pkg}/`)),
      `sdk.js holds ${pkg}`,
    );
});

// Reads a folder's config with extension.js's own config reader (from the registry the feature
// bundles read), and says which of the build's bundles the process loaded.
function readWith(dist: string, folder: string): { servers: number; problems: string[]; loaded: string[] } {
  const code = `${vscodeStub()}
require(${JSON.stringify(join(dist, 'extension.js'))});
const loaded = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(dist)})).map((f) => f.slice(${dist.length + 1})).sort();
const before = loaded();
const config = globalThis[Symbol.for('mcp-host/modules')].get('src/core/config/index.ts');
config.readConfig({ folders: [${JSON.stringify(folder)}], systemManagedPath: '', discovery: { enabled: false }, env: {} }).then((r) => {
  process.stdout.write(JSON.stringify({ before, servers: r.servers.length, problems: r.problems.map((p) => p.file + ' ' + JSON.stringify(p.jsonPath) + ' ' + p.message), loaded: loaded() }));
});`;
  const r = JSON.parse(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' })) as {
    before: string[];
    servers: number;
    problems: string[];
    loaded: string[];
  };
  assert.deepEqual(r.before, ['extension.js'], 'requiring extension.js loads no other bundle');
  return r;
}

test('a well-formed config is read without loading sdk.js; a broken entry loads it and names the file and field', async () => {
  const { dist } = await shippedBuild();
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-activation-'));
  try {
    const good = join(dir, 'good');
    mkdirSync(join(good, '.vscode'), { recursive: true });
    writeFileSync(
      join(good, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          local: { command: 'node', args: ['server.js'], env: { PORT: 3000 } },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', oauth: { clientId: 'abc', scopes: ['read'] } },
        },
      }),
    );
    writeFileSync(
      join(good, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [{ id: 'token', type: 'promptString', description: 'Token', password: true }],
        servers: { git: { command: 'uvx', args: ['mcp-server-git'], env: { TOKEN: '${input:token}' } } },
      }),
    );
    const ok = readWith(dist, good);
    assert.deepEqual(ok.problems, []);
    assert.equal(ok.servers, 3);
    assert.deepEqual(ok.loaded, ['extension.js']);

    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, '.mcp.json'),
      JSON.stringify({ mcpServers: { broken: { command: 'node', args: ['a', 3] } } }),
    );
    const broken = readWith(dist, bad);
    assert.deepEqual(broken.problems, [
      `${join(bad, '.mcp.json')} ["mcpServers","broken","args",1] "args[1]" of server "broken" must be a string, but it is a number (3).`,
    ]);
    assert.deepEqual(broken.loaded, ['extension.js', 'sdk.js']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
