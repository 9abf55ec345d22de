// test/support/system-tool.ts: a missing system tool skips a test outside CI with one line naming it
// and its install, and fails it under CI=true; MCP_HOST_TEST_HIDE_TOOLS makes a present tool missing.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { requireTool, requireTools } from '../../support/system-tool.js';

const saved = { CI: process.env.CI, HIDE: process.env.MCP_HOST_TEST_HIDE_TOOLS };
afterEach(() => {
  for (const [k, v] of [
    ['CI', saved.CI],
    ['MCP_HOST_TEST_HIDE_TOOLS', saved.HIDE],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

test('a tool that is here gives no reason; a missing one gives the one-line reason outside CI', () => {
  delete process.env.CI;
  delete process.env.MCP_HOST_TEST_HIDE_TOOLS;
  assert.equal(
    requireTool('node', 'install Node', () => true),
    undefined,
  );
  assert.equal(
    requireTool('no-such-tool-xyz', 'apt-get install no-such-tool-xyz'),
    'needs no-such-tool-xyz (apt-get install no-such-tool-xyz)',
  );
});

test('MCP_HOST_TEST_HIDE_TOOLS hides a present tool, so a bare machine can be tried on a full one', () => {
  delete process.env.CI;
  process.env.MCP_HOST_TEST_HIDE_TOOLS = 'bwrap, python3-debugpy';
  assert.equal(
    requireTool('bwrap', 'apt-get install bubblewrap', () => true),
    'needs bwrap (apt-get install bubblewrap)',
  );
  assert.equal(
    requireTool('python3-debugpy', 'apt-get install python3-debugpy', () => true),
    'needs python3-debugpy (apt-get install python3-debugpy)',
  );
  assert.equal(
    requireTool('socat', 'apt-get install socat', () => true),
    undefined,
  );
  assert.equal(
    requireTools([
      ['bwrap', 'apt-get install bubblewrap'],
      ['node', 'install Node'],
    ]),
    'needs bwrap (apt-get install bubblewrap)',
  );
});

test('under CI a missing tool throws (CI installs every tool, so a skip there would hide a broken set-up)', () => {
  process.env.CI = 'true';
  process.env.MCP_HOST_TEST_HIDE_TOOLS = 'bwrap';
  assert.throws(
    () => requireTool('bwrap', 'apt-get install bubblewrap', () => true),
    /needs bwrap \(apt-get install bubblewrap\): CI runs these tests/,
  );
});
