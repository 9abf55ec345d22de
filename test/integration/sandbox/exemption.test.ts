/**
 * The administrator's sandbox exemption cannot be claimed by a repository (issue 41, item 4): a
 * `.mcp.json` server named like the exempt one still runs sandboxed, so it cannot read the user's
 * SSH key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { tempDir } from '../connection/helpers.js';
import { call, hostWith, needsSandbox, PROBE, type Ctx } from './support.js';

const root = tempDir('sandbox-exempt');
const home = path.join(root, 'home');
const key = path.join(home, '.ssh', 'id_rsa');

describe('a project server named like the exempt one', { skip: needsSandbox() }, () => {
  let ctx: Ctx;
  before(async () => {
    fs.mkdirSync(path.dirname(key), { recursive: true });
    fs.writeFileSync(key, 'PRIVATE KEY');
    ctx = await hostWith({
      root,
      name: 'cloned-repo',
      home,
      file: '.mcp.json',
      // No sandboxEnabled: only the policy could sandbox it, and it names "trusted" exempt.
      servers: { trusted: { command: process.execPath, args: [PROBE] } },
      managed: { sandboxPolicy: { required: true, exemptServers: [{ serverName: 'trusted' }] } },
    });
  });
  after(async () => {
    await ctx?.host.dispose();
    await sharedSandboxRuntime().dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('runs sandboxed (required by policy) and cannot read ~/.ssh/id_rsa', async () => {
    const s = ctx.host.server('trusted')!;
    assert.equal(s.state.kind, 'connected', JSON.stringify(s.state));
    const a = s.definition.admission;
    assert.ok(a?.run && a.sandbox?.by === 'policy', JSON.stringify(a));
    assert.match(await call(ctx.host, 'trusted', 'read', { path: key }), /^error: .*(ENOENT|EACCES)/);
  });
});
