/**
 * The CLI's state.json (era verdicts, the needs-auth cache) stays usable whatever a server sends
 * (issue 41, item 9): a 2026-07-28 server with 5 MB of instructions once pushed the file past its
 * 4 MB read limit, after which every run warned, kept nothing and refused to write it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, createHarness, type Harness } from './harness.js';
import { serverScript } from '../../support/fixture-servers.js';

const MODERN = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'modern-server.mjs'));
const ERA_KEY = 'mcpHost.eraVerdicts';
let h: Harness;

before(async () => {
  h = await createHarness();
});

after(async () => {
  await h?.dispose();
});

async function configDir(name: string): Promise<string> {
  const dir = join(h.dir, `config-${name}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

type Verdicts = Record<string, { kind: string; discover?: { instructions?: string } }>;
const verdictsIn = async (file: string): Promise<Verdicts> =>
  (JSON.parse(await readFile(file, 'utf8')) as Record<string, Verdicts>)[ERA_KEY] ?? {};

describe('state.json stays small and readable', () => {
  test('a server with 5 MB of instructions: the file stays small, a second run reads it and still connects', async () => {
    const ws = await h.workspace('big-instructions', {
      big: { command: process.execPath, args: [MODERN, '--instructions-bytes', String(5 * 1024 * 1024)] },
      small: { command: process.execPath, args: [MODERN] },
    });
    const dir = await configDir('big');
    const env = { MCP_HOST_CONFIG_DIR: dir };
    const file = join(dir, 'state.json');
    for (const run of [1, 2]) {
      const r = await h.run(['list', '--json'], { cwd: ws, env, timeoutMs: 60_000 });
      assert.equal(r.code, 0, `run ${run}: ${r.stderr}`);
      const rows = JSON.parse(r.stdout) as { name: string; state: string; protocolVersion?: string }[];
      assert.deepEqual(
        rows.map((x) => `${x.name} ${x.state} ${x.protocolVersion}`).sort(),
        ['big connected 2026-07-28', 'small connected 2026-07-28'],
        `run ${run}`,
      );
      assert.doesNotMatch(r.stderr, /state\.json/, `run ${run}`);
      assert.ok((await stat(file)).size < 64 * 1024, `run ${run}: ${(await stat(file)).size} bytes`);
    }
    // The small server's verdict is remembered; the big one is probed afresh instead of stored.
    const verdicts = Object.values(await verdictsIn(file));
    assert.equal(verdicts.length, 1, JSON.stringify(verdicts).slice(0, 200));
    assert.equal(verdicts[0]!.kind, 'modern');
  });

  test('an oversized or corrupt state.json is started anew, keeping the entries that still read, and said once', async () => {
    const ws = await h.workspace('recover', { small: { command: process.execPath, args: [MODERN] } });
    for (const [name, text] of [
      // Parseable but past the limit: the kept entry and the good verdict survive, the huge one goes.
      [
        'oversized',
        JSON.stringify({
          'keep.me': { a: 1 },
          [ERA_KEY]: {
            good: { kind: 'legacy', at: Date.now() },
            huge: {
              kind: 'modern',
              at: 1,
              discover: { supportedVersions: [], capabilities: {}, instructions: 'x'.repeat(5 * 1024 * 1024) },
            },
          },
        }),
      ],
      ['corrupt', '{"keep.me": {"a": 1}, "mcpHost.eraVerdicts": {'],
    ] as const) {
      const dir = await configDir(name);
      const file = join(dir, 'state.json');
      await writeFile(file, text, { mode: 0o600 });
      const env = { MCP_HOST_CONFIG_DIR: dir };
      const r = await h.run(['list', '--json'], { cwd: ws, env, timeoutMs: 60_000 });
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.equal(r.stderr.match(/state\.json could not be used/g)?.length, 1, `${name}: ${r.stderr}`);
      assert.ok(existsSync(`${file}.bad`), name);
      const doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const verdicts = Object.keys((doc[ERA_KEY] ?? {}) as Verdicts);
      if (name === 'oversized') {
        assert.deepEqual(doc['keep.me'], { a: 1 });
        assert.ok(verdicts.includes('good') && !verdicts.includes('huge'), verdicts.join());
      }
      // This run's verdict was written: the file is in use again, and the next run is quiet.
      assert.equal(verdicts.filter((k) => k !== 'good').length, 1, `${name}: ${verdicts.join()}`);
      const again = await h.run(['list', '--json'], { cwd: ws, env, timeoutMs: 60_000 });
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stderr, /state\.json/, name);
    }
  });
});
