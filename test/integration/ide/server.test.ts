// The IDE server end to end on plain Node: a fake EditorPort, a real WebSocket agent client.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nullLogger } from '../../../src/core/ports.js';
import { IdeServer } from '../../../src/core/ide/server.js';
import { connectAgent, jsonOf, readLocks, texts, type Agent } from './agent.js';
import { FakeEditor } from './fake-editor.js';
import { poll } from '../../support/wait.js';

const TOOLS = [
  'checkDocumentDirty',
  'closeAllDiffTabs',
  'close_tab',
  'executeCode',
  'getCurrentSelection',
  'getDiagnostics',
  'getLatestSelection',
  'getOpenEditors',
  'getWorkspaceFolders',
  'openDiff',
  'openFile',
  'saveDocument',
];

async function waitFor(cond: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  await poll(what, timeoutMs, () => (cond() ? true : undefined), 10);
}

describe('IDE server with an agent client', () => {
  let dir: string;
  let editor: FakeEditor;
  let server: IdeServer;
  let agent: Agent;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ide-int-'));
    editor = new FakeEditor();
    server = await IdeServer.start({
      editor,
      logger: nullLogger,
      ideName: 'MCP Host Test',
      lockDir: join(dir, 'ide'),
      selectionDebounceMs: 20,
    });
    const locks = readLocks(join(dir, 'ide'));
    assert.equal(locks.length, 1);
    agent = await connectAgent(locks[0]!);
  });

  after(async () => {
    await agent?.close();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the lock file announces the server with exactly the documented fields', () => {
    const [lock] = readLocks(join(dir, 'ide'));
    assert.equal(lock!.port, server.port);
    assert.deepEqual(Object.keys(lock!.content).sort(), [
      'authToken',
      'ideName',
      'pid',
      'runningInWindows',
      'transport',
      'workspaceFolders',
    ]);
    assert.equal(lock!.content.pid, process.pid);
    assert.deepEqual(lock!.content.workspaceFolders, ['/work/proj']);
    assert.equal(lock!.content.transport, 'ws');
    assert.equal(lock!.content.ideName, 'MCP Host Test');
    assert.equal(lock!.content.runningInWindows, process.platform === 'win32');
    assert.ok(Buffer.from(lock!.content.authToken, 'base64url').length >= 32, 'token carries at least 256 bits');
  });

  test('subprotocol mcp is echoed, the agent is counted', async () => {
    assert.equal(agent.ws.protocol, 'mcp');
    await waitFor(() => server.clientCount() === 1, 'client count 1');
    assert.equal(agent.client.getServerVersion()?.name, 'mcp-host-ide');
  });

  test('tools/list has every tool with an input schema', async () => {
    const { tools } = await agent.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    const openDiff = tools.find((t) => t.name === 'openDiff')!;
    assert.deepEqual([...(openDiff.inputSchema.required ?? [])].sort(), [
      'new_file_contents',
      'new_file_path',
      'old_file_path',
      'tab_name',
    ]);
    const openFile = tools.find((t) => t.name === 'openFile')!;
    assert.deepEqual(Object.keys(openFile.inputSchema.properties ?? {}).sort(), [
      'endText',
      'filePath',
      'makeFrontmost',
      'preview',
      'selectToEndOfLine',
      'startText',
    ]);
  });

  test('getDiagnostics returns the documented shape, filtered by uri', async () => {
    const d = {
      message: "Type 'string' is not assignable to type 'number'.",
      severity: 'Error' as const,
      range: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } },
      source: 'ts',
      code: 2322,
    };
    editor.diags = [
      { uri: 'file:///work/proj/a.ts', diagnostics: [d] },
      { uri: 'file:///work/proj/b.ts', diagnostics: [{ ...d, severity: 'Warning', code: 'x' }] },
    ];
    assert.deepEqual(jsonOf(await agent.call('getDiagnostics')), editor.diags);
    assert.deepEqual(jsonOf(await agent.call('getDiagnostics', { uri: 'file:///work/proj/a.ts' })), [editor.diags[0]]);
  });

  test('openFile: frontmost gives a message, background gives details; errors are tool errors', async () => {
    assert.deepEqual(
      texts(await agent.call('openFile', { filePath: '/work/proj/a.ts', startText: 'let', endText: ';' })),
      ['Opened file: /work/proj/a.ts'],
    );
    assert.deepEqual(editor.opened.at(-1), {
      filePath: '/work/proj/a.ts',
      preview: false,
      startText: 'let',
      endText: ';',
      selectToEndOfLine: false,
      makeFrontmost: true,
    });
    const bg = jsonOf(
      await agent.call('openFile', { filePath: '/work/proj/a.ts', makeFrontmost: false, preview: true }),
    );
    assert.deepEqual(bg, { success: true, filePath: '/work/proj/a.ts', languageId: 'typescript', lineCount: 3 });
    const missing = await agent.call('openFile', { filePath: '/work/proj/missing.ts' });
    assert.equal(missing.isError, true);
    assert.match(texts(missing)[0]!, /File not found/);
    const bad = await agent.call('openFile', {});
    assert.equal(bad.isError, true, 'missing filePath is rejected by the schema');
  });

  test('openDiff blocks until accepted and returns FILE_SAVED with the final contents', async () => {
    const next = editor.nextDiff();
    const call = agent.call('openDiff', {
      old_file_path: '/work/proj/a.ts',
      new_file_path: '/work/proj/a.ts',
      new_file_contents: 'let x = 1;\n',
      tab_name: 'a.ts (proposed)',
    });
    const diff = await next;
    assert.deepEqual(diff.req, {
      oldFilePath: '/work/proj/a.ts',
      newFilePath: '/work/proj/a.ts',
      newFileContents: 'let x = 1;\n',
      tabName: 'a.ts (proposed)',
    });
    let settled = false;
    void call.then(() => (settled = true));
    // A later request answered on the same socket: an early openDiff answer would have arrived first.
    await agent.client.listTools();
    assert.equal(settled, false, 'openDiff must wait for the user');
    diff.decide({ kind: 'accepted', contents: 'let x = 2;\n' });
    assert.deepEqual(texts(await call), ['FILE_SAVED', 'let x = 2;\n']);
  });

  test('openDiff rejected or closed returns DIFF_REJECTED with the tab name', async () => {
    for (const kind of ['rejected', 'closed'] as const) {
      const next = editor.nextDiff();
      const call = agent.call('openDiff', {
        old_file_path: '/a',
        new_file_path: '/a',
        new_file_contents: '',
        tab_name: `t-${kind}`,
      });
      (await next).decide({ kind });
      assert.deepEqual(texts(await call), ['DIFF_REJECTED', `t-${kind}`]);
    }
  });

  test('selections: current, latest after focus left, and debounced selection_changed', async () => {
    assert.deepEqual(jsonOf(await agent.call('getCurrentSelection')), {
      success: false,
      message: 'No active editor found',
    });
    assert.deepEqual(jsonOf(await agent.call('getLatestSelection')), {
      success: false,
      message: 'No selection available',
    });
    const sel = (line: number) => ({
      text: 'abc',
      filePath: '/work/proj/a.ts',
      fileUrl: 'file:///work/proj/a.ts',
      selection: { start: { line, character: 0 }, end: { line, character: 3 }, isEmpty: false },
    });
    const heard = agent.nextNotification('selection_changed');
    const before = agent.notifications.length;
    for (let i = 0; i < 10; i++) editor.selectionEmitter.fire(sel(i));
    assert.deepEqual(await heard, sel(9), 'the debounced notification carries the last selection');
    // One more change after the burst: any further notification of the burst is sent before its own.
    const marker = agent.nextNotification('selection_changed');
    editor.selectionEmitter.fire(sel(10));
    assert.deepEqual(await marker, sel(10));
    assert.deepEqual(
      agent.notifications
        .slice(before)
        .filter((n) => n.method === 'selection_changed')
        .map((n) => n.params),
      [sel(9), sel(10)],
      'ten changes in a burst send one notification',
    );
    // Focus moved to the terminal: no current selection, but the latest is remembered.
    editor.selection = undefined;
    assert.deepEqual(jsonOf(await agent.call('getLatestSelection')), { success: true, ...sel(10) });
    editor.selection = sel(4);
    assert.deepEqual(jsonOf(await agent.call('getCurrentSelection')), { success: true, ...sel(4) });
  });

  test('at_mentioned reaches the agent', async () => {
    const heard = agent.nextNotification('at_mentioned');
    assert.equal(server.notifyAtMention({ filePath: '/work/proj/a.ts', lineStart: 2, lineEnd: 5 }), 1);
    assert.deepEqual(await heard, { filePath: '/work/proj/a.ts', lineStart: 2, lineEnd: 5 });
  });

  test('open editors, workspace folders, dirty state, save, tabs', async () => {
    editor.editors = [
      {
        uri: 'file:///work/proj/a.ts',
        isActive: true,
        isPinned: false,
        isPreview: false,
        isDirty: true,
        label: 'a.ts',
        groupIndex: 0,
        viewColumn: 1,
        isGroupActive: true,
        fileName: '/work/proj/a.ts',
        languageId: 'typescript',
        lineCount: 3,
        isUntitled: false,
      },
    ];
    assert.deepEqual(jsonOf(await agent.call('getOpenEditors')), { tabs: editor.editors });
    assert.deepEqual(jsonOf(await agent.call('getWorkspaceFolders')), {
      success: true,
      folders: editor.folders,
      rootPath: '/work/proj',
    });

    assert.deepEqual(jsonOf(await agent.call('checkDocumentDirty', { filePath: '/work/proj/a.ts' })), {
      success: false,
      message: 'Document not open: /work/proj/a.ts',
    });
    editor.docs.set('/work/proj/a.ts', { isDirty: true, isUntitled: false });
    assert.deepEqual(jsonOf(await agent.call('checkDocumentDirty', { filePath: '/work/proj/a.ts' })), {
      success: true,
      filePath: '/work/proj/a.ts',
      isDirty: true,
      isUntitled: false,
    });
    assert.deepEqual(jsonOf(await agent.call('saveDocument', { filePath: '/work/proj/a.ts' })), {
      success: true,
      filePath: '/work/proj/a.ts',
      saved: true,
      message: 'Document saved successfully',
    });
    assert.deepEqual(editor.saved, ['/work/proj/a.ts']);
    assert.deepEqual(jsonOf(await agent.call('saveDocument', { filePath: '/nope.ts' })), {
      success: false,
      message: 'Document not open: /nope.ts',
    });

    assert.deepEqual(texts(await agent.call('close_tab', { tab_name: 'a.ts (proposed)' })), ['TAB_CLOSED']);
    assert.deepEqual(editor.closedTabs, ['a.ts (proposed)']);
    assert.deepEqual(texts(await agent.call('closeAllDiffTabs')), [`CLOSED_${editor.diffs.length}_DIFF_TABS`]);
  });

  test('executeCode: clear error without a kernel, outputs with one', async () => {
    const none = await agent.call('executeCode', { code: 'print(1)' });
    assert.equal(none.isError, true);
    assert.match(texts(none)[0]!, /notebook/);
    editor.kernel = (code) => [
      { type: 'text', text: `ran ${code}` },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ];
    const r = await agent.call('executeCode', { code: 'print(1)' });
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.content, [
      { type: 'text', text: 'ran print(1)' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ]);
    editor.kernel = undefined;
  });

  test('several agents at once; a pending openDiff resolves when its agent disconnects', async () => {
    const lock = readLocks(join(dir, 'ide'))[0]!;
    const others = await Promise.all([connectAgent(lock), connectAgent(lock), connectAgent(lock)]);
    try {
      await waitFor(() => server.clientCount() === 4, 'four clients');
      const answers = await Promise.all(others.map((a) => a.call('getWorkspaceFolders')));
      for (const r of answers) assert.equal(jsonOf(r).success, true);

      const next = editor.nextDiff();
      const doomed = others[0]!;
      void doomed
        .call('openDiff', { old_file_path: '/a', new_file_path: '/a', new_file_contents: 'x', tab_name: 'doomed' })
        .catch(() => undefined);
      const diff = await next;
      assert.equal(diff.signal.aborted, false);
      doomed.ws.terminate();
      await waitFor(() => diff.signal.aborted, 'the diff to be aborted');
      await waitFor(() => server.clientCount() === 3, 'client count back to 3');
      // The others keep working.
      assert.equal(jsonOf(await others[1]!.call('getWorkspaceFolders')).success, true);
      assert.equal(jsonOf(await agent.call('getWorkspaceFolders')).success, true);
    } finally {
      await Promise.all(others.map((a) => a.close()));
    }
    await waitFor(() => server.clientCount() === 1, 'only the first agent left');
  });

  test('workspace folder changes rewrite the lock file', async () => {
    editor.folders = [...editor.folders, { name: 'lib', uri: 'file:///work/lib', path: '/work/lib' }];
    editor.foldersEmitter.fire();
    await waitFor(() => readLocks(join(dir, 'ide'))[0]?.content.workspaceFolders.length === 2, 'lock file rewritten');
    assert.deepEqual(readLocks(join(dir, 'ide'))[0]!.content.workspaceFolders, ['/work/proj', '/work/lib']);
  });
});
