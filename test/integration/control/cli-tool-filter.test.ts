/**
 * The CLI honours tools switched off in the editor for the same folder: a real fixture server,
 * the choice written through the same ToolFilter the tree uses, then `mcp-host tools` / `call`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main.js';
import { capturedIo, type CapturedIo } from '../../support/cli-io.js';
import { ToolFilter } from '../../../src/core/tools/tool-filter.js';
import { WorkspaceStateStore } from '../../../src/core/tools/workspace-state.js';
import { STDIO_FIXTURE, tempDir } from '../connection/helpers.js';

const work = tempDir('cli-tool-filter');
after(() => rmSync(work, { recursive: true, force: true }));

function io(env: Record<string, string>, cwd: string): CapturedIo {
  return capturedIo(cwd, env);
}

test(
  'a tool disabled for the folder is missing from `tools` and refused by `call` (exit 2)',
  { timeout: 60_000 },
  async () => {
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [STDIO_FIXTURE, '--name', 'fx'] } } }),
    );
    const configDir = join(work, 'config');
    const env = { MCP_HOST_CONFIG_DIR: configDir, MCP_HOST_BLOB_DIR: join(work, 'blobs') };

    const before = io(env, project);
    assert.equal(await runCli(['tools', 'fx', '--json'], before), 0, before.err);
    assert.ok((JSON.parse(before.out) as { name: string }[]).some((t) => t.name === 'echo'));

    await new ToolFilter(new WorkspaceStateStore(configDir, project)).setEnabled('fx', 'echo', false);

    const after = io(env, project);
    assert.equal(await runCli(['tools', 'fx', '--json'], after), 0, after.err);
    const names = (JSON.parse(after.out) as { name: string }[]).map((t) => t.name);
    assert.ok(!names.includes('echo'), 'echo is hidden');
    assert.ok(names.includes('pid'), 'the others stay');

    const list = io(env, project);
    assert.equal(await runCli(['list', '--json'], list), 0, list.err);
    assert.equal(
      (JSON.parse(list.out) as { tools: number }[])[0]!.tools,
      names.length,
      'list counts the enabled tools',
    );

    const call = io(env, project);
    assert.equal(await runCli(['call', 'fx', 'echo', '--args', '{"text":"hi"}'], call), 2);
    assert.match(call.err, /tool "echo" of server "fx" is disabled/);

    const other = join(work, 'other');
    mkdirSync(other);
    writeFileSync(
      join(other, '.mcp.json'),
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [STDIO_FIXTURE, '--name', 'fx'] } } }),
    );
    const elsewhere = io(env, other);
    assert.equal(
      await runCli(['call', 'fx', 'echo', '--args', '{"text":"hi"}'], elsewhere),
      0,
      'another folder has its own choices',
    );
    assert.match(elsewhere.out, /echo: hi/);
  },
);
