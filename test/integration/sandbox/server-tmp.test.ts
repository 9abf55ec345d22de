/**
 * A sandboxed server's TMPDIR is its own: writable and readable by it, hidden from every other
 * sandboxed server (core/sandbox/server-tmp.ts). Before, each was a plain folder in /tmp that the
 * other servers could read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { tempDir } from '../connection/helpers.js';
import { call, hostWith, needsSandbox, probe, type Ctx } from './support.js';

const root = tempDir('sandbox-tmp');

describe("sandboxed servers' temporary folders", { skip: needsSandbox() }, () => {
  let ctx: Ctx;
  before(async () => {
    ctx = await hostWith({ root, name: 'ws', home: path.join(root, 'home'), servers: { a: probe, b: probe } });
  });
  after(async () => {
    await ctx?.host.dispose();
    await sharedSandboxRuntime().dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('each server writes and reads its own; the other cannot read it', async () => {
    for (const s of ['a', 'b']) assert.equal(ctx.host.server(s)!.state.kind, 'connected', s);
    const tmpA = (await call(ctx.host, 'a', 'tmpdir', {})).replace(/^ok: /, '');
    const tmpB = (await call(ctx.host, 'b', 'tmpdir', {})).replace(/^ok: /, '');
    assert.ok(tmpA && tmpB && tmpA !== tmpB, `two folders: ${tmpA} ${tmpB}`);
    const file = path.join(tmpA, 'scratch.txt');
    assert.equal(await call(ctx.host, 'a', 'write', { path: file }), 'ok: written');
    assert.equal(await call(ctx.host, 'a', 'read', { path: file }), 'ok: written by sandbox-probe');
    assert.equal(fs.readFileSync(file, 'utf8'), 'written by sandbox-probe', 'the host sees the real folder');
    assert.match(await call(ctx.host, 'b', 'read', { path: file }), /^error: .*(ENOENT|EACCES)/);
    assert.equal(await call(ctx.host, 'b', 'write', { path: path.join(tmpB, 'own.txt') }), 'ok: written');
  });
});
