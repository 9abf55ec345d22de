/**
 * What the CLI prints (issue 12, items 3, 6, 7): no credential from a URL, an argument, an
 * expanded `${env:…}` value or a header reaches stdout or stderr (`list`, `list --json`, `doctor`,
 * `doctor --json`); a server's stdout garbage is logged redacted; names and messages from a
 * repository's config cannot drive the terminal (ESC, OSC, BEL) or reorder a line (bidi).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../../../src/cli/main.js';
import { capturedIo, type CapturedIo } from '../../support/cli-io.js';

const LEAKY = resolve(__dirname, 'fixtures', 'leaky-server.mjs');
let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'mcp-sec-cli-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

function io(env: Record<string, string> = {}): CapturedIo {
  return capturedIo(work, {
    MCP_HOST_CONFIG_DIR: join(work, 'config'),
    MCP_HOST_BLOB_DIR: join(work, 'blobs'),
    ...env,
  });
}

function project(name: string, servers: Record<string, unknown>): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  return dir;
}

const SECRETS = [
  'hunter2pw',
  'SECRETQUERYKEY1',
  'APIKEYVALUE123',
  'plainsecretvalue987',
  'hdrsecret555',
  'leakedbearer0123456789',
  'leakedpgpassword42',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
];

function assertNoSecret(label: string, text: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${label} printed ${s}:\n${text}`);
}

test('list, list --json, doctor and doctor --json print no credential', { timeout: 120_000 }, async () => {
  const dir = project('creds', {
    'url-creds': { type: 'http', url: 'http://user:hunter2pw@127.0.0.1:9/mcp?api_key=SECRETQUERYKEY1' },
    'arg-creds': {
      command: process.execPath,
      args: [join(work, 'missing-server.js'), '--api-key', 'APIKEYVALUE123', '${env:GITHUB_TOKEN}'],
    },
    'crlf-header': {
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Custom': 'hdrsecret555\r\nInjected: yes' },
    },
  });
  const env = { GITHUB_TOKEN: 'plainsecretvalue987' };
  for (const args of [['list'], ['list', '--json'], ['doctor'], ['doctor', '--json']]) {
    const run = io(env);
    const code = await runCli([...args, '--workspace', dir], run);
    assert.ok(code === 0 || code === 2 || code === 3, `${args.join(' ')} exited ${code}`);
    assert.ok(run.out.length > 0, `${args.join(' ')} printed something`);
    assertNoSecret(`${args.join(' ')} stdout`, run.out);
    assertNoSecret(`${args.join(' ')} stderr`, run.err);
    if (args.includes('--json')) JSON.parse(run.out);
  }
});

test("a server's stdout garbage is logged redacted, like its stderr", { timeout: 60_000 }, async () => {
  const dir = project('leaky', { leaky: { command: process.execPath, args: [LEAKY] } });
  const run = io({ MCP_HOST_LOG: 'debug' });
  assert.equal(await runCli(['tools', 'leaky', '--workspace', dir], run), 0, run.err);
  assert.match(run.out, /ping/);
  assert.match(
    run.err,
    /\[stdout\] ignored a line that is not JSON-RPC: Authorization: \[redacted\]/,
    'the stdout line is logged, redacted',
  );
  assertNoSecret('tools stderr', run.err);
});

const ESC = '\u001b';
const BEL = '\u0007';
const RLO = '\u202E';

test(
  'terminal escapes and bidi controls from config and servers are shown, not obeyed',
  { timeout: 60_000 },
  async () => {
    const osc = `${ESC}]8;;https://evil.example${BEL}click${ESC}]8;;${BEL}`;
    const dir = project('escapes', {
      [`${ESC}[2J${ESC}[31mred`]: { command: process.execPath, args: [join(work, 'missing.js')] },
      [osc]: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      [`invoice${RLO}fdp.exe`]: { command: 42 },
      [`line\nbreak`]: { command: process.execPath, args: [join(work, 'missing.js'), `${ESC}[8mhidden`] },
    });
    for (const args of [['list'], ['list', '--json'], ['doctor'], ['doctor', '--json'], ['tools']]) {
      const run = io();
      await runCli([...args, '--workspace', dir], run);
      for (const [label, text] of [
        ['stdout', run.out],
        ['stderr', run.err],
      ] as const) {
        assert.ok(
          // eslint-disable-next-line no-control-regex -- looking for raw control characters is the test.
          !/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(text),
          `${args.join(' ')} ${label} holds a raw control character: ${JSON.stringify(text)}`,
        );
      }
      assert.ok((run.out + run.err).includes('\\u001b'), `${args.join(' ')} shows the escape as text`);
      if (args.includes('--json')) JSON.parse(run.out);
    }
    const list = io();
    await runCli(['list', '--workspace', dir], list);
    assert.match(list.out, /line\\u000abreak/, 'a newline in a name cannot forge a table row');
  },
);
