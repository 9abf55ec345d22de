import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionOf } from '../../../src/core/config/admit.js';
import { editorReads, leftToEditor, parseChoice, readByEditor } from '../../../src/extension/vscode-mcp/shared-plan.js';
import { def } from './fixtures.js';

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

test('left to VS Code only when the user chose "vscode"', () => {
  const reads = editorReads('1.139.1', true, 'all');
  assert.equal(leftToEditor(ws, 'vscode', [folder], reads), true);
  assert.equal(leftToEditor(ws, 'both', [folder], reads), false);
  assert.equal(leftToEditor(ws, 'ask', [folder], reads), false);
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
