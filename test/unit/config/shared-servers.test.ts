import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionOf } from '../../../src/core/config/admit.js';
import {
  editorReads,
  editorServerIds,
  leftToEditor,
  parseChoice,
  parsePerServer,
  readByEditor,
  whoRuns,
  withoutServers,
  withRunner,
  type SharedChoices,
} from '../../../src/core/config/shared-servers.js';
import { def } from '../extension/fixtures.js';

const folder = '/w';
const ws = def('ws', { scope: 'workspace', file: '/w/.vscode/mcp.json' });
const proj = def('proj', { scope: 'project', file: '/w/.mcp.json' });
const nested = def('nested', { scope: 'project', file: '/w/sub/.mcp.json' });
const user = def('user', { scope: 'user', file: 'settings:mcpHost.servers' });

test('which files VS Code reads itself depends on its version, its MCP API and chat.mcp.access', () => {
  assert.deepEqual(editorReads('1.100.3', false, undefined), { vscodeMcpJson: false, rootMcpJson: false });
  assert.deepEqual(editorReads('1.103.2', true, 'all'), { vscodeMcpJson: true, rootMcpJson: false });
  assert.deepEqual(editorReads('1.139.1', true, 'all'), { vscodeMcpJson: true, rootMcpJson: true });
  assert.deepEqual(editorReads('1.139.1', true, 'none'), { vscodeMcpJson: false, rootMcpJson: false });
});

test('only servers of a folder’s .vscode/mcp.json and root .mcp.json are shared with VS Code', () => {
  const reads = editorReads('1.139.1', true, 'all');
  assert.deepEqual(
    [ws, proj, nested, user].map((d) => readByEditor(d, [folder], reads)),
    [true, true, false, false],
  );
  assert.equal(readByEditor(proj, [folder], editorReads('1.103.2', true, 'all')), false);
});

const all = (workspace: SharedChoices['workspace']): SharedChoices => ({ workspace, perServer: {} });

test('left to VS Code only when the user chose "vscode"', () => {
  const reads = editorReads('1.139.1', true, 'all');
  assert.equal(leftToEditor(ws, all('vscode'), [folder], reads), true);
  assert.equal(leftToEditor(ws, all('both'), [folder], reads), false);
  assert.equal(leftToEditor(ws, all('ask'), [folder], reads), false);
  assert.equal(parseChoice('VSCODE'), 'ask');
  assert.equal(parseChoice(3), 'ask');
});

test('admission holds a server left to VS Code back, after trust (Restricted Mode still says untrusted) and before approval', () => {
  const left = (): boolean => true;
  assert.equal(admissionOf(ws, { trusted: true, leftToEditor: left }).run, false);
  const a = admissionOf(ws, { trusted: true, leftToEditor: left });
  assert.ok(!a.run && a.reason === 'editor');
  const untrusted = admissionOf(ws, { trusted: false, leftToEditor: left });
  assert.ok(!untrusted.run && untrusted.reason === 'untrusted');
  const disabled = admissionOf(
    { ...ws, config: { ...ws.config, disabled: true } },
    { trusted: true, leftToEditor: left },
  );
  assert.ok(!disabled.run && disabled.reason === 'config');
  assert.equal(admissionOf(ws, { trusted: true, leftToEditor: () => false }).run, true);
});

test('a server’s own choice wins over the workspace answer, in both directions, and only for that server', () => {
  const reads = editorReads('1.139.1', true, 'all');
  const takenBack: SharedChoices = { workspace: 'vscode', perServer: { ws: 'mcpHost' } };
  assert.equal(whoRuns(ws, takenBack, [folder], reads), 'mcpHost');
  assert.equal(whoRuns(proj, takenBack, [folder], reads), 'vscode', 'the other server stays left to VS Code');
  assert.equal(leftToEditor(ws, takenBack, [folder], reads), false);
  const leftOne: SharedChoices = { workspace: 'both', perServer: { proj: 'vscode' } };
  assert.equal(whoRuns(proj, leftOne, [folder], reads), 'vscode');
  assert.equal(whoRuns(ws, leftOne, [folder], reads), 'mcpHost');
  assert.equal(whoRuns(ws, { workspace: 'ask', perServer: { ws: 'vscode' } }, [folder], reads), 'vscode');
  // Servers VS Code does not read are MCP Host's whatever the settings say.
  assert.equal(whoRuns(user, { workspace: 'vscode', perServer: { user: 'vscode' } }, [folder], reads), undefined);
  assert.equal(
    whoRuns(proj, { workspace: 'vscode', perServer: {} }, [folder], editorReads('1.103.2', true, 'all')),
    undefined,
  );
});

test('the per-server setting: malformed entries are dropped, writes do not change the input, the offer clears what it answered', () => {
  assert.deepEqual(parsePerServer({ a: 'vscode', b: 'mcpHost', c: 'both', d: 1 }), { a: 'vscode', b: 'mcpHost' });
  assert.deepEqual(parsePerServer(['vscode']), {});
  assert.deepEqual(parsePerServer(null), {});
  const before = { a: 'vscode' } as const;
  assert.deepEqual(withRunner(before, 'b', 'mcpHost'), { a: 'vscode', b: 'mcpHost' });
  assert.deepEqual(withRunner(before, 'a', 'mcpHost'), { a: 'mcpHost' });
  assert.deepEqual(before, { a: 'vscode' });
  assert.deepEqual(withoutServers({ a: 'vscode', b: 'mcpHost', c: 'vscode' }, ['a', 'b']), { c: 'vscode' });
  assert.equal(withoutServers({ a: 'vscode' }, ['a']), undefined, 'removed, not written as {}');
});

test('VS Code’s ids of its own entries (what workbench.mcp.stopServer takes in 1.139)', () => {
  assert.deepEqual(editorServerIds(ws, ['/other', folder]), ['mcp.config.ws1.ws']);
  assert.deepEqual(editorServerIds(proj, [folder]), ['workspace-dot-mcp.0.proj']);
  assert.deepEqual(editorServerIds(nested, [folder]), []);
  assert.deepEqual(editorServerIds(user, [folder]), []);
});

test('admission marks a running server VS Code also reads, so the tree can offer "Leave to VS Code"', () => {
  const a = admissionOf(ws, { trusted: true, readByEditor: () => true });
  assert.ok(a.run && a.sharedWithEditor === true);
  const b = admissionOf(user, { trusted: true, readByEditor: () => false });
  assert.ok(b.run && b.sharedWithEditor === undefined);
  const held = admissionOf(ws, { trusted: true, leftToEditor: () => true, readByEditor: () => true });
  assert.ok(!held.run && held.reason === 'editor' && /Take Back from VS Code/.test(held.message));
});
