/**
 * A server's question can hold a secret the CLI knows (here the server's own API key, from its
 * config): the question reaches the terminal redacted like every other stderr line, whether it is
 * asked (a real pty, so the CLI's own process terminal) or declined because nobody can answer.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { withDeadline } from '../../support/wait.js';
import { createHarness, type Harness } from '../cli/harness.js';

const LEAKY = resolve(__dirname, 'fixtures', 'leaky-server.mjs');
const SECRET = 'plainsecretvalue987';
let h: Harness;
let ws: string;

before(async () => {
  h = await createHarness();
  ws = await h.workspace('prompts', {
    leaky: { command: process.execPath, args: [LEAKY], env: { LEAKY_API_KEY: SECRET } },
  });
});
after(async () => {
  await h?.dispose();
});

test('declined for want of a terminal: the note quoting the question is redacted', { timeout: 60_000 }, async () => {
  const r = await h.runBinary(['call', 'leaky', 'ask'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /leaky asked for input \("Confirm the key \[redacted\]"\); declined/);
  assert.ok(!(r.stdout + r.stderr).includes(SECRET), r.stderr);
});

test('asked in a real terminal: the message and the field prompt are redacted', { timeout: 60_000 }, async () => {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const cmd = [process.execPath, h.cli, 'call', 'leaky', 'ask'].map(quote).join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '', HOME: h.dir, MCP_HOST_BLOB_DIR: join(h.dir, 'blobs') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let waiting: { re: RegExp; done: () => void } | undefined;
  // The secret showing up ends a wait too: the test then fails at once, on what it saw.
  const ready = (re: RegExp) => re.test(out) || out.includes(SECRET);
  const take = (d: Buffer) => {
    out += d.toString();
    if (waiting && ready(waiting.re)) waiting.done();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((done) => child.on('close', done));
  const shown = (what: string) => (err: Error) => {
    throw new Error(`${err.message} (${what}); the terminal shows:\n${out}`);
  };
  const showing = (re: RegExp, what: string) =>
    withDeadline(new Promise<void>((done) => (ready(re) ? done() : (waiting = { re, done }))), what).catch(shown(what));
  try {
    // The folder's server is asked about first: its approval lists its environment, redacted.
    await showing(/Allow "leaky" to run\? \[y\/n\]/, 'the approval question');
    assert.match(out, /LEAKY_API_KEY=\[redacted\](?!\])/);
    child.stdin.write('y\r');
    await showing(/Note for \[redacted\]/, 'the field prompt');
    assert.ok(!out.includes(SECRET), out);
    child.stdin.write('hello\r');
    await showing(/Send this to leaky\?/, 'the confirmation');
    child.stdin.write('n\r');
    assert.equal(await withDeadline(exited, 'end of the CLI').catch(shown('exit')), 0);
  } finally {
    child.kill('SIGKILL');
  }
  assert.match(out, /leaky asks: Confirm the key \[redacted\]/);
  assert.match(out, /elicitation decline/);
  assert.ok(!out.includes(SECRET), out);
});
