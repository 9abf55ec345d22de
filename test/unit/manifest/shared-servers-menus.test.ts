/**
 * The tree's menus for servers VS Code also runs, evaluated the way VS Code matches `viewItem =~ /re/`
 * on the context values tree/model.ts gives: a row left to VS Code offers "Take Back from VS Code"
 * and nothing that would start or talk to a second copy; a shared row MCP Host runs offers "Leave to VS Code".
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};

/** Commands of the server tree's row menu that show for `contextValue` (only `view ==` and `viewItem =~` clauses appear there). */
function rowCommands(contextValue: string): Set<string> {
  const out = new Set<string>();
  for (const m of pkg.contributes.menus['view/item/context']) {
    const when = m.when ?? '';
    if (!when.includes('view == mcpHost.servers')) continue;
    const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when);
    if (!re) continue;
    if (new RegExp(re[1]).test(contextValue)) out.add(m.command);
  }
  return out;
}

test('a row left to VS Code offers Take Back (inline and in the menu) and nothing that starts or calls a second copy', () => {
  const cmds = rowCommands('mcpServer.editor');
  assert.ok(cmds.has('mcpHost.takeBackFromVSCode'));
  const inline = pkg.contributes.menus['view/item/context'].filter(
    (m) => m.command === 'mcpHost.takeBackFromVSCode' && m.group?.startsWith('inline'),
  );
  assert.equal(inline.length, 1, 'an inline Take Back button');
  for (const c of [
    'mcpHost.startServer',
    'mcpHost.restartServer',
    'mcpHost.stopServer',
    'mcpHost.enableServer',
    'mcpHost.authenticate',
    'mcpHost.sendRequest',
    'mcpHost.addRoot',
    'mcpHost.removeRoot',
    'mcpHost.toggleTrace',
    'mcpHost.leaveToVSCode',
  ])
    assert.ok(!cmds.has(c), `${c} on a row left to VS Code`);
  assert.ok(cmds.has('mcpHost.showLogs') && cmds.has('mcpHost.openConfig'), 'its log and config stay reachable');
});

test('a running row VS Code also runs offers Leave to VS Code; other rows do not', () => {
  assert.ok(rowCommands('mcpServer.connected.shared').has('mcpHost.leaveToVSCode'));
  assert.ok(rowCommands('mcpServer.connected.remote.shared').has('mcpHost.leaveToVSCode'));
  assert.ok(rowCommands('mcpServer.connected.remote.shared').has('mcpHost.signOut'), '.remote menus still match');
  assert.ok(!rowCommands('mcpServer.connected').has('mcpHost.leaveToVSCode'));
  assert.ok(!rowCommands('mcpServer.connected.shared').has('mcpHost.takeBackFromVSCode'));
  assert.ok(rowCommands('mcpServer.connected.shared').has('mcpHost.sendRequest'));
});

test('the offer stays reachable: a palette command and the tree’s title menu, where servers are shared', () => {
  const palette = pkg.contributes.menus.commandPalette.find((m) => m.command === 'mcpHost.chooseSharedServers');
  assert.equal(palette?.when, 'mcpHost.hasSharedServers');
  const title = pkg.contributes.menus['view/title'].find((m) => m.command === 'mcpHost.chooseSharedServers');
  assert.match(title?.when ?? '', /view == mcpHost\.servers && mcpHost\.hasSharedServers/);
});
