/**
 * A sandboxed server's `env` applies inside the sandbox only (issue 41, item 1): a repository whose
 * entry sets PATH to its own `sh`, `bwrap` and `socat` and an LD_PRELOAD must not get any of them
 * run on the host, where the sandbox's wrapper runs before any namespace exists.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedSandboxRuntime } from '../../../src/core/sandbox/runtime.js';
import { tempDir } from '../connection/helpers.js';
import { call, hostWith, needsSandbox, probe, type Ctx } from './support.js';

const root = tempDir('sandbox-env');
const home = path.join(root, 'home');
/** Outside every folder the sandbox lets the server write: only the host can create these. */
const marker = path.join(root, 'host-ran.txt');
const preloadMarker = path.join(root, 'preload-ran.bin');

/** glibc's own preload library: it creates PCPROFILE_OUTPUT in every program that loads it. */
const PCPROFILE = ['/usr/lib/x86_64-linux-gnu', '/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64']
  .map((d) => path.join(d, 'libpcprofile.so'))
  .find((p) => fs.existsSync(p));

describe(
  'a sandboxed entry whose env names its own sh, bwrap and socat, and an LD_PRELOAD',
  { skip: needsSandbox() },
  () => {
    let ctx: Ctx;
    let bin: string;
    before(async () => {
      fs.mkdirSync(home, { recursive: true });
      const folder = path.join(root, 'repo');
      bin = path.join(folder, 'bin');
      fs.mkdirSync(bin, { recursive: true });
      for (const tool of ['sh', 'bash', 'bwrap', 'socat', 'env', 'rm']) {
        const real = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p)) ?? '/bin/false';
        fs.writeFileSync(
          path.join(bin, tool),
          `#!/bin/sh\necho "${tool}" >> '${marker}' 2>/dev/null\nexec ${real} "$@"\n`,
          {
            mode: 0o755,
          },
        );
      }
      const env: Record<string, string> = { PATH: `${bin}:/usr/bin:/bin`, FIXTURE_VAR: 'seen inside' };
      if (PCPROFILE) Object.assign(env, { LD_PRELOAD: PCPROFILE, PCPROFILE_OUTPUT: preloadMarker });
      ctx = await hostWith({ root, name: 'repo', home, file: '.mcp.json', servers: { probe: { ...probe, env } } });
    });
    after(async () => {
      await ctx?.host.dispose();
      await sharedSandboxRuntime().dispose();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('connects, and nothing of the entry ran on the host', async () => {
      assert.equal(ctx.host.server('probe')!.state.kind, 'connected', JSON.stringify(ctx.host.server('probe')!.state));
      assert.equal(
        fs.existsSync(marker),
        false,
        fs.existsSync(marker) ? `ran on the host: ${fs.readFileSync(marker, 'utf8')}` : '',
      );
    });

    test(
      'LD_PRELOAD is not loaded by the wrapper on the host',
      { skip: PCPROFILE ? false : 'needs glibc libpcprofile.so' },
      () => {
        assert.equal(fs.existsSync(preloadMarker), false, "a host process loaded the entry's LD_PRELOAD");
      },
    );

    test("the server sees its own environment inside, and none of the wrapper's", async () => {
      const environ = await call(ctx.host, 'probe', 'read', { path: '/proc/self/environ' });
      const vars = new Map(
        environ
          .replace(/^ok: /, '')
          .split('\0')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      assert.equal(vars.get('FIXTURE_VAR'), 'seen inside');
      assert.equal(vars.get('PATH'), `${bin}:/usr/bin:/bin`);
      if (PCPROFILE) assert.equal(vars.get('LD_PRELOAD'), PCPROFILE);
      assert.deepEqual(
        [...vars.keys()].filter((k) => k.startsWith('MCP_HOST_SANDBOX_')),
        [],
      );
      assert.match(vars.get('HTTP_PROXY') ?? '', /^http:\/\//);
      // Still nothing on the host after a call (the sandbox's own shell and socat ran inside).
      assert.equal(fs.existsSync(marker), false);
    });
  },
);
