/** The folders the sandbox hides are the ones MCP Host's writers really use (core/user-dir.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { discoveryDir } from '../../../src/core/gateway/discovery.js';
import { defaultLockDir } from '../../../src/core/ide/lock-file.js';
import { defaultDiscoveryDir } from '../../../src/core/ide/gemini/discovery.js';
import { hostPrivateDirs } from '../../../src/core/user-dir.js';
import { cliConfigDir } from '../../../src/cli/auth-store.js';

const within = (p: string, dirs: string[]) => dirs.some((d) => p === d || p.startsWith(d + path.sep));

test("every writer's folder is among the hidden ones, for the environment it writes with", () => {
  const env = {
    HOME: '/h',
    XDG_CONFIG_HOME: '/x',
    MCP_HOST_HOME: '/m',
    CLAUDE_CONFIG_DIR: '/c',
    TMPDIR: '/t/',
  };
  const dirs = hostPrivateDirs(env, ['/editor/globalStorage']);
  for (const p of [cliConfigDir(env), discoveryDir(env), defaultLockDir(env), '/editor/globalStorage'])
    assert.ok(within(p, dirs), `${p} not in ${dirs.join(', ')}`);
  assert.ok(within('/t/gemini/ide', dirs), dirs.join(', '));
  // This process's own (the editor's writers take no environment).
  const own = hostPrivateDirs();
  for (const p of [discoveryDir(), defaultLockDir(), defaultDiscoveryDir(), cliConfigDir(process.env)])
    assert.ok(within(p, own), `${p} not in ${own.join(', ')}`);
});
