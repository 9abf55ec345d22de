// A cloned repository's servers do not start under `mcp-host` until the user approves them: on a
// terminal the CLI asks with the lines the editor's prompt shows (core/config/consent-summary.ts),
// without one it starts none and `list`/`doctor` say how to approve. The decision lives in the
// per-workspace file the editor keeps its approvals in (core/config/approvals-file.ts), keyed by
// the definition's approval hash: approving in one front end approves in the other, and a changed
// definition asks again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Terminal } from '../../../src/cli/io.js';
import { admit } from '../../../src/core/config/admit.js';
import { sharedServerApprovals } from '../../../src/core/config/approvals-file.js';
import { readConfig } from '../../../src/core/config/load.js';
import { serverScript } from '../../support/fixture-servers.js';
import { ROOT, createHarness, type Harness } from './harness.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));
/** What a person who never approved anything gets: the harness's own folders are otherwise allowed. */
const UNAPPROVED = { MCP_HOST_ALLOW_PROJECT_SERVERS: '' };

let h: Harness;
let n = 0;

before(async () => {
  h = await createHarness();
});
after(() => h?.dispose());

/** A folder whose one server (`repo`) records "start …" in the marker file when it is started. */
async function repo(extraArgs: string[] = []): Promise<{ ws: string; marker: string }> {
  const name = `repo-${++n}`;
  const marker = join(h.dir, `${name}.marker`);
  const ws = await h.workspace(name, {
    repo: { command: process.execPath, args: [STDIO, '--record', marker, ...extraArgs] },
  });
  return { ws, marker };
}

/** A person at a terminal answering `answer` to every question; what was asked is kept. */
function person(answer: string): Terminal & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    interactive: true,
    question: (prompt) => {
      asked.push(prompt);
      return Promise.resolve(answer);
    },
  };
}

/** The editor's store, as the extension opens it (its config dir is HOME/.config/mcp-host). */
function editorStore(ws: string) {
  return sharedServerApprovals(ws, { MCP_HOST_CONFIG_DIR: join(h.dir, '.config', 'mcp-host') });
}

/** The folder's definitions as the editor reads them (with their approval hashes). */
async function editorDefinitions(ws: string) {
  const read = await readConfig({ folders: [ws], env: { HOME: h.dir }, homeDir: h.dir });
  return read.servers;
}

describe('without a terminal', () => {
  test('list starts no server the folder defines and names it as awaiting approval', async () => {
    const { ws, marker } = await repo();
    const list = await h.run(['list'], { cwd: ws, env: UNAPPROVED });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(existsSync(marker), false, 'the repository’s command ran');
    assert.match(list.stdout, /repo .*awaiting approval/);
    assert.match(list.stdout, /mcp-host approve/);
    const json = await h.run(['list', '--json'], { cwd: ws, env: UNAPPROVED });
    const rows = JSON.parse(json.stdout) as { name: string; state: string; awaitingApproval?: boolean }[];
    assert.deepEqual(
      rows.map((r) => [r.name, r.state, r.awaitingApproval]),
      [['repo', 'disabled', true]],
    );
    const doctor = await h.run(['doctor'], { cwd: ws, env: UNAPPROVED });
    assert.match(doctor.stdout, /mcp-host approve repo/);
    const tools = await h.run(['tools', 'repo'], { cwd: ws, env: UNAPPROVED });
    assert.equal(tools.code, 2, tools.stderr);
    assert.match(tools.stderr, /mcp-host approve repo/);
    assert.equal(existsSync(marker), false, 'the repository’s command ran');
  });

  test('mcp-host approve shows what would run and approves; then the server starts', async () => {
    const { ws, marker } = await repo();
    const approve = await h.run(['approve', 'repo'], { cwd: ws, env: UNAPPROVED });
    assert.equal(approve.code, 0, approve.stderr);
    assert.match(approve.stdout, /repo: .*stdio-server.*--record/);
    assert.equal(existsSync(marker), false, 'approve itself starts nothing');
    const list = await h.run(['list', '--json'], { cwd: ws, env: UNAPPROVED });
    const rows = JSON.parse(list.stdout) as { name: string; state: string }[];
    assert.deepEqual(
      rows.map((r) => [r.name, r.state]),
      [['repo', 'connected']],
    );
    assert.equal(existsSync(marker), true);
    const unknown = await h.run(['approve', 'nope'], { cwd: ws, env: UNAPPROVED });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown server "nope"/);
  });

  test('--allow-project-servers and MCP_HOST_ALLOW_PROJECT_SERVERS=1 start them without remembering anything', async () => {
    const { ws, marker } = await repo();
    const flag = await h.run(['list', '--json', '--allow-project-servers'], { cwd: ws, env: UNAPPROVED });
    assert.match(flag.stdout, /"state": "connected"/, flag.stderr);
    await rm(marker);
    const env = await h.run(['tools', 'repo'], { cwd: ws, env: { MCP_HOST_ALLOW_PROJECT_SERVERS: '1' } });
    assert.equal(env.code, 0, env.stderr);
    assert.equal(existsSync(marker), true);
    await rm(marker);
    const after = await h.run(['list'], { cwd: ws, env: UNAPPROVED });
    assert.match(after.stdout, /awaiting approval/);
    assert.equal(existsSync(marker), false);
  });
});

test('a server the user adds to the folder with mcp-host add starts without asking them', async () => {
  const { ws, marker } = await repo();
  const own = join(h.dir, `own-${n}.marker`);
  const add = await h.run(['add', 'mine', '--', process.execPath, STDIO, '--record', own], {
    cwd: ws,
    env: UNAPPROVED,
  });
  assert.equal(add.code, 0, add.stderr);
  const list = await h.run(['list', '--json'], { cwd: ws, env: UNAPPROVED });
  const rows = JSON.parse(list.stdout) as { name: string; state: string }[];
  assert.deepEqual(
    rows.map((r) => [r.name, r.state]),
    [
      ['repo', 'disabled'],
      ['mine', 'connected'],
    ],
  );
  assert.equal(existsSync(marker), false, 'the entry that was there before still waits');
});

describe('shared with the editor', () => {
  test('approved through the editor’s store, the CLI starts it', async () => {
    const { ws, marker } = await repo();
    const held = await h.run(['tools', 'repo', '--json'], { cwd: ws, env: UNAPPROVED });
    assert.equal(held.code, 2, held.stderr);
    assert.equal(existsSync(marker), false);
    await editorStore(ws).approve(await editorDefinitions(ws));
    const tools = await h.run(['tools', 'repo', '--json'], { cwd: ws, env: UNAPPROVED });
    assert.equal(tools.code, 0, tools.stderr);
    assert.equal(existsSync(marker), true);
  });

  test('approved in the CLI, the editor’s admission runs it', async () => {
    const { ws } = await repo();
    const defs = await editorDefinitions(ws);
    const before = admit(defs, { trusted: true, approvals: editorStore(ws) });
    assert.equal(before[0]!.admission?.run, false);
    const approve = await h.run(['approve'], { cwd: ws, env: UNAPPROVED });
    assert.equal(approve.code, 0, approve.stderr);
    const afterwards = admit(defs, { trusted: true, approvals: editorStore(ws) });
    assert.equal(afterwards[0]!.admission?.run, true);
  });
});

describe('on a terminal', () => {
  test('the CLI asks with the command line; yes starts it and is remembered', async () => {
    const { ws, marker } = await repo();
    const yes = person('y');
    const r = await h.run(['tools', 'repo'], { cwd: ws, env: UNAPPROVED, terminal: yes });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(yes.asked.length, 1);
    assert.match(r.stderr, /repo: .*stdio-server.*--record/);
    assert.equal(existsSync(marker), true);
    const again = person('n');
    const second = await h.run(['tools', 'repo'], { cwd: ws, env: UNAPPROVED, terminal: again });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(again.asked, [], 'an approved definition is not asked about again');
  });

  test('no starts nothing and is remembered (shown by list, lifted by approve)', async () => {
    const { ws, marker } = await repo();
    const no = person('n');
    const r = await h.run(['list'], { cwd: ws, env: UNAPPROVED, terminal: no });
    assert.equal(no.asked.length, 1);
    assert.equal(existsSync(marker), false);
    assert.match(r.stdout, /repo .*not approved/);
    const later = person('y');
    await h.run(['list'], { cwd: ws, env: UNAPPROVED, terminal: later });
    assert.deepEqual(later.asked, [], 'a refusal is remembered, as the editor’s "Don’t Allow"');
    assert.equal(existsSync(marker), false);
    const editor = editorStore(ws);
    const [def] = await editorDefinitions(ws);
    assert.equal(editor.status('repo', def!.approvalHash!), 'denied');
  });

  test('a changed definition asks again', async () => {
    const { ws, marker } = await repo();
    assert.equal((await h.run(['approve'], { cwd: ws, env: UNAPPROVED })).code, 0);
    await writeFile(
      join(ws, '.mcp.json'),
      JSON.stringify({
        mcpServers: { repo: { command: process.execPath, args: [STDIO, '--record', marker, '--name', 'changed'] } },
      }),
    );
    const quiet = await h.run(['list'], { cwd: ws, env: UNAPPROVED });
    assert.match(quiet.stdout, /repo .*awaiting approval/);
    assert.match(quiet.stdout, /changed since/);
    assert.equal(existsSync(marker), false);
    const yes = person('y');
    const r = await h.run(['tools', 'repo'], { cwd: ws, env: UNAPPROVED, terminal: yes });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(yes.asked.length, 1);
    assert.match(r.stderr, /--name changed/);
    assert.match(r.stderr, /changed since/);
    assert.equal(existsSync(marker), true);
  });
});
