/**
 * Sandboxed servers cannot read MCP Host's own secrets (issue 41, item 5): every folder this
 * process keeps them in (core/user-dir.ts, the same paths their writers use) is hidden, while the
 * server still reads its workspace.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { discoveryDir, discoveryFile } from '../../../src/core/gateway/discovery.js';
import { lockFilePath } from '../../../src/core/ide/lock-file.js';
import { discoveryFileName } from '../../../src/core/ide/gemini/discovery.js';
import { claudeIdeLockDir, geminiDiscoveryDir, hostPrivateDirs, userConfigDir } from '../../../src/core/user-dir.js';
import { tempDir } from '../connection/helpers.js';
import { call, hostWith, needsSandbox, probe, type Ctx } from './support.js';

const root = tempDir('sandbox-private');
const home = path.join(root, 'home');
/** None of these is under `home`: the fixed credential-store list never hid them. */
const env = {
  HOME: home,
  XDG_CONFIG_HOME: path.join(root, 'xdg'),
  MCP_HOST_HOME: path.join(root, 'mcp-host-home'),
  CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  TMPDIR: path.join(root, 'tmp'),
};
const globalStorage = path.join(root, 'editor', 'User', 'globalStorage');
/** A secret folder that does not exist yet when the server starts (the CLI before its first sign-in). */
const lateDir = path.join(root, 'not-yet', 'mcp-host');

const secrets: Record<string, string> = {
  'CLI secrets.json': path.join(userConfigDir(env), 'secrets.json'),
  'CLI state.json': path.join(userConfigDir(env), 'state.json'),
  'gateway discovery file': discoveryFile(discoveryDir(env), 4242),
  'Claude IDE lock file': lockFilePath(claudeIdeLockDir(env), 5555),
  'Gemini IDE discovery file': path.join(geminiDiscoveryDir(env), discoveryFileName(1, 2)),
  "the editor's globalStorage": path.join(globalStorage, 'state.vscdb'),
};

describe("MCP Host's own secret folders under the sandbox", { skip: needsSandbox() }, () => {
  let ctx: Ctx;
  before(async () => {
    for (const file of Object.values(secrets)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'BEARER-SECRET');
    }
    ctx = await hostWith({
      root,
      name: 'ws',
      home,
      servers: { probe },
      privateDirs: hostPrivateDirs(env, [globalStorage, lateDir]),
    });
  });
  after(async () => {
    await ctx?.host.dispose();
    await sharedSandboxRuntime().dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('each is unreadable from inside', async () => {
    assert.equal(ctx.host.server('probe')!.state.kind, 'connected', JSON.stringify(ctx.host.server('probe')!.state));
    for (const [what, file] of Object.entries(secrets)) {
      assert.match(await call(ctx.host, 'probe', 'read', { path: file }), /^error: .*(ENOENT|EACCES)/, what);
    }
  });

  test('the workspace is still readable', async () => {
    fs.writeFileSync(path.join(ctx.folder, 'notes.txt'), 'workspace text');
    assert.equal(
      await call(ctx.host, 'probe', 'read', { path: path.join(ctx.folder, 'notes.txt') }),
      'ok: workspace text',
    );
  });

  test('a secret folder first written after the server started is hidden too', async () => {
    // Made before the spawn: a folder made later would show through the sandbox's live bind of /.
    fs.mkdirSync(lateDir, { recursive: true });
    const late = path.join(lateDir, 'secrets.json');
    fs.writeFileSync(late, 'LATER');
    assert.match(await call(ctx.host, 'probe', 'read', { path: late }), /^error: .*(ENOENT|EACCES)/);
  });
});
