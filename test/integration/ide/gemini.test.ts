// The Gemini CLI IDE server on plain Node: a fake EditorPort, an SDK client that connects as Gemini CLI does, every message of the interface.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nullLogger } from '../../../src/core/ports.js';
import type { IdeSelection } from '../../../src/core/ide/editor-port.js';
import { GeminiIdeServer } from '../../../src/core/ide/gemini/server.js';
import { FakeEditor } from './fake-editor.js';
import { GeminiAgent, readDiscovery, type Notice } from './gemini-agent.js';
import { pollUntil, withDeadline } from '../../support/wait.js';

function selectionIn(path: string, text: string, line = 2, character = 4): IdeSelection {
  return {
    text,
    filePath: path,
    fileUrl: `file://${path}`,
    selection: {
      start: { line, character: text.length > 0 ? 0 : character },
      end: { line, character },
      isEmpty: text.length === 0,
    },
  };
}

function tab(path: string, isActive = false): FakeEditor['editors'][number] {
  return {
    uri: `file://${path}`,
    isActive,
    isPinned: false,
    isPreview: false,
    isDirty: false,
    label: path.split('/').pop() ?? path,
    groupIndex: 0,
    isGroupActive: true,
    fileName: path,
    isUntitled: false,
  };
}

type OpenFile = { path: string; timestamp: number; isActive?: boolean; cursor?: unknown; selectedText?: string };
const filesOf = (n: Notice): OpenFile[] => (n.params.workspaceState as { openFiles: OpenFile[] }).openFiles;

describe('Gemini CLI IDE server', () => {
  let dir: string;
  let editor: FakeEditor;
  let server: GeminiIdeServer;
  let agent: GeminiAgent;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gemini-ide-'));
    editor = new FakeEditor();
    editor.folders.push({ name: 'other', uri: 'file:///work/other', path: '/work/other' });
    editor.editors = [tab('/work/proj/a.ts', true), tab('/work/proj/b.ts')];
    editor.selection = selectionIn('/work/proj/a.ts', 'const x');
    server = await GeminiIdeServer.start({
      editor,
      logger: nullLogger,
      discoveryDir: join(dir, 'ide'),
      idePid: 4242,
      ideInfo: { name: 'vscode', displayName: 'Test Code' },
      contextDebounceMs: 10,
    });
    const found = readDiscovery(join(dir, 'ide'));
    assert.equal(found.length, 1);
    agent = await GeminiAgent.connect(found[0]!.content.port, found[0]!.content.authToken);
  });

  after(async () => {
    await agent.close().catch(() => undefined);
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('discovery file: named for the editor pid and port, 0600, the fields of the interface', () => {
    const [found] = readDiscovery(join(dir, 'ide'));
    assert.equal(found!.name, `gemini-ide-server-4242-${server.port}.json`);
    assert.match(found!.name, /^gemini-ide-server-(\d+)-\d+\.json$/, 'the pattern Gemini CLI 0.61.0 scans for');
    assert.equal(found!.mode, 0o600);
    assert.deepEqual(Object.keys(found!.content).sort(), ['authToken', 'ideInfo', 'port', 'workspacePath']);
    assert.equal(found!.content.port, server.port);
    assert.equal(found!.content.workspacePath, ['/work/proj', '/work/other'].join(delimiter));
    assert.deepEqual(found!.content.ideInfo, { name: 'vscode', displayName: 'Test Code' });
    assert.ok(found!.content.authToken.length >= 32);
  });

  test('terminal environment carries what Gemini CLI reads', () => {
    const env = server.terminalEnvironment();
    const [found] = readDiscovery(join(dir, 'ide'));
    assert.deepEqual(env, {
      GEMINI_CLI_IDE_SERVER_PORT: String(server.port),
      GEMINI_CLI_IDE_WORKSPACE_PATH: found!.content.workspacePath,
      GEMINI_CLI_IDE_AUTH_TOKEN: found!.content.authToken,
      GEMINI_CLI_IDE_PID: '4242',
    });
  });

  test('tools: openDiff, closeDiff and getDiagnostics; the agent counts once its stream is open and it listed them', async () => {
    const { tools } = await agent.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['closeDiff', 'getDiagnostics', 'openDiff']);
    const first = await agent.next('ide/contextUpdate');
    assert.ok(first);
    assert.equal(server.clientCount(), 1);
  });

  test('an agent with a stream that has not listed the tools yet is not counted: Gemini CLI would not use our diff yet', async () => {
    const late = await GeminiAgent.connect(server.port, readDiscovery(join(dir, 'ide'))[0]!.content.authToken, {
      listTools: false,
    });
    try {
      await late.next('ide/contextUpdate');
      assert.equal(server.clientCount(), 1);
      const counted = new Promise<void>((resolve) => {
        const sub = server.onDidChange(() => server.clientCount() === 2 && (sub.dispose(), resolve()));
      });
      await late.client.listTools();
      await withDeadline(counted, 'the agent counted after tools/list', 10_000);
    } finally {
      await late.close();
    }
    await withDeadline(
      new Promise<void>((resolve) => {
        if (server.clientCount() === 1) return resolve();
        const sub = server.onDidChange(() => server.clientCount() === 1 && (sub.dispose(), resolve()));
      }),
      'the count back to 1',
      10_000,
    );
  });

  test('first context: the active file with its 1-based cursor and selected text', async () => {
    const n = await agent.next('ide/contextUpdate');
    const files = filesOf(n);
    assert.equal(files[0]!.path, '/work/proj/a.ts');
    assert.equal(files[0]!.isActive, true);
    assert.deepEqual(files[0]!.cursor, { line: 3, character: 5 });
    assert.equal(files[0]!.selectedText, 'const x');
    assert.deepEqual(
      files.map((f) => f.path),
      ['/work/proj/a.ts', '/work/proj/b.ts'],
    );
    assert.equal(files[1]!.isActive, undefined);
    assert.equal(files[1]!.cursor, undefined);
  });

  test('focus moves: newest first, timestamps ordered, only the active file has cursor and selection', async () => {
    editor.selection = selectionIn('/work/proj/b.ts', '', 0, 0);
    editor.selectionEmitter.fire(editor.selection);
    const n = await agent.next('ide/contextUpdate', (p) => {
      const f = (p.workspaceState as { openFiles: OpenFile[] }).openFiles;
      return f[0]?.path === '/work/proj/b.ts';
    });
    const files = filesOf(n);
    assert.deepEqual(files[0]!.cursor, { line: 1, character: 1 });
    assert.equal(files[0]!.selectedText, undefined, 'an empty selection sends no text');
    assert.equal(files[1]!.path, '/work/proj/a.ts');
    assert.equal(files[1]!.isActive, undefined);
    assert.equal(files[1]!.selectedText, undefined);
    assert.ok(files[0]!.timestamp >= files[1]!.timestamp);
  });

  test('limits: at most 10 files and 16 KiB of selected text; untitled and non-file tabs left out', async () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/work/proj/f${i}.ts`);
    editor.editors = [...paths.map((p) => tab(p)), { ...tab('/work/proj/Untitled-1'), isUntitled: true }];
    editor.editors.push({ ...tab('/x'), uri: 'vscode-settings://settings' });
    for (const p of paths) editor.selectionEmitter.fire(selectionIn(p, ''));
    const big = 'x'.repeat(20_000);
    editor.selection = selectionIn(paths[11]!, big);
    editor.selectionEmitter.fire(editor.selection);
    const n = await agent.next('ide/contextUpdate', (p) => {
      const f = (p.workspaceState as { openFiles: OpenFile[] }).openFiles;
      return f[0]?.path === paths[11] && f[0]?.selectedText !== undefined;
    });
    const files = filesOf(n);
    assert.equal(files.length, 10);
    assert.equal(files[0]!.selectedText!.length, 16 * 1024);
    assert.deepEqual(
      files.map((f) => f.path),
      paths.slice(2).reverse(),
    );
  });

  test('openDiff answers at once with empty content; Accept sends ide/diffAccepted with the edited proposal', async () => {
    const pending = editor.nextDiff();
    const r = await agent.call('openDiff', { filePath: '/work/proj/a.ts', newContent: 'proposed\n' });
    assert.deepEqual(r.content, []);
    assert.notEqual(r.isError, true);
    const d = await pending;
    assert.equal(d.req.oldFilePath, '/work/proj/a.ts');
    assert.equal(d.req.newFilePath, '/work/proj/a.ts');
    assert.equal(d.req.newFileContents, 'proposed\n');
    d.decide({ kind: 'accepted', contents: 'proposed, edited by the user\n' });
    const n = await agent.next('ide/diffAccepted', (p) => p.filePath === '/work/proj/a.ts');
    assert.deepEqual(n.params, { filePath: '/work/proj/a.ts', content: 'proposed, edited by the user\n' });
  });

  test('Reject, and a diff tab the user closed, send ide/diffRejected', async () => {
    let pending = editor.nextDiff();
    await agent.call('openDiff', { filePath: '/work/proj/r1.ts', newContent: 'no' });
    (await pending).decide({ kind: 'rejected' });
    assert.deepEqual((await agent.next('ide/diffRejected', (p) => p.filePath === '/work/proj/r1.ts')).params, {
      filePath: '/work/proj/r1.ts',
    });
    pending = editor.nextDiff();
    await agent.call('openDiff', { filePath: '/work/proj/r2.ts', newContent: 'no' });
    (await pending).decide({ kind: 'closed' });
    await agent.next('ide/diffRejected', (p) => p.filePath === '/work/proj/r2.ts');
  });

  test('closeDiff closes the diff, returns the proposal as it stands, and no notification follows', async () => {
    const pending = editor.nextDiff();
    await agent.call('openDiff', { filePath: '/work/proj/c.ts', newContent: 'first' });
    const d = await pending;
    d.signal.addEventListener('abort', () => d.decide({ kind: 'closed', contents: 'first, edited' }));
    const r = await agent.call('closeDiff', { filePath: '/work/proj/c.ts', suppressNotification: true });
    assert.equal(d.signal.aborted, true);
    assert.deepEqual(JSON.parse(r.content[0]!.text!), { content: 'first, edited' });
    // A later notification proves nothing was queued for c.ts before it.
    const pending2 = editor.nextDiff();
    await agent.call('openDiff', { filePath: '/work/proj/c2.ts', newContent: 'x' });
    (await pending2).decide({ kind: 'rejected' });
    await agent.next('ide/diffRejected', (p) => p.filePath === '/work/proj/c2.ts');
    assert.equal(
      agent.notices.some((n) => n.params.filePath === '/work/proj/c.ts'),
      false,
    );
    const none = await agent.call('closeDiff', { filePath: '/work/proj/never.ts' });
    assert.deepEqual(JSON.parse(none.content[0]!.text!), { content: null });
  });

  test('openDiff with a relative path is an error in the interface’s terms', async () => {
    const r = await agent.call('openDiff', { filePath: 'a.ts', newContent: '' });
    assert.equal(r.isError, true);
    assert.match(r.content[0]!.text!, /absolute path/);
  });

  test('getDiagnostics returns the editor’s diagnostics', async () => {
    editor.diags = [
      {
        uri: 'file:///work/proj/a.ts',
        diagnostics: [
          {
            message: 'bad',
            severity: 'Error',
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
          },
        ],
      },
    ];
    const r = await agent.call('getDiagnostics', {});
    assert.deepEqual(JSON.parse(r.content[0]!.text!), editor.diags);
  });

  test('workspace folders change: the discovery file follows', async () => {
    editor.folders = [{ name: 'proj', uri: 'file:///work/proj', path: '/work/proj' }];
    editor.foldersEmitter.fire();
    assert.ok(
      await pollUntil(() => readDiscovery(join(dir, 'ide'))[0]?.content.workspacePath === '/work/proj', 20_000, 10),
      'discovery file not rewritten',
    );
  });

  test('dispose removes the discovery file', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'gemini-ide-'));
    const s = await GeminiIdeServer.start({ editor, logger: nullLogger, discoveryDir: dir2, idePid: 1 });
    assert.equal(existsSync(s.discoveryFile), true);
    await s.dispose();
    assert.equal(existsSync(s.discoveryFile), false);
    rmSync(dir2, { recursive: true, force: true });
  });
});
