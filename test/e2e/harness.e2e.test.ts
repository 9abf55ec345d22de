// Tests of the harness itself: its helpers against VS Code's built-in UI (so they do not depend
// on any MCP Host feature), and its cleanup when the test process is interrupted or killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { extensionHostErrors, extensionHostLogFiles, packagedVsix, poll, repoRoot, startVSCode } from './harness.js';
import { SESSION_ENV, processesWithEnv } from './support/processes.js';
import { openTerminal, runInTerminal, TERMINAL_SETTINGS } from './support/terminal.js';

test('the extension host log check picks our errors and only those', (t) => {
  const userData = mkdtempSync(join(tmpdir(), 'exthost-log-'));
  t.after(() => rmSync(userData, { recursive: true, force: true }));
  const dir = join(userData, 'logs', '20261201T100000', 'exthost1');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'remoteexthost.log'),
    [
      "2026-12-01 10:00:02.001 [error] No tree item with id '1/group/project' found.",
      '2026-12-01 10:00:02.002 [error] Activating extension vscode.git failed: no git',
      '2026-12-01 10:00:02.003 [info] ExtensionService#_doActivateExtension mcp-host.mcp-host',
      '2026-12-01 10:00:02.004 [error] [mcp-host.mcp-host] command mcpHost.callTool failed',
    ].join('\n'),
  );
  assert.deepEqual(
    extensionHostErrors(userData).map((l) => l.slice(24)),
    [
      "[error] No tree item with id '1/group/project' found.",
      '[error] [mcp-host.mcp-host] command mcpHost.callTool failed',
    ],
  );
});

test('helpers drive the palette, editors, quick picks, the status bar and dialogs', { timeout: 600_000 }, async (t) => {
  const vs = await startVSCode({ workspace: 'empty', name: 'harness-helpers' });
  t.after(() => vs.dispose());

  await vs.runCommand('File: New Untitled Text File');
  await vs.page.locator('.part.editor .monaco-editor textarea').first().waitFor({ state: 'attached' });
  await vs.page.keyboard.type('hello harness');
  await vs.page.keyboard.press('Enter');
  await vs.page.keyboard.type('second line');
  const text = await poll('the typed text in the editor', 30_000, async () => {
    const s = await vs.activeEditorText();
    return s.includes('second line') ? s : undefined;
  });
  assert.equal(text, 'hello harness\nsecond line');

  // Right after start-up the built-in language extensions may still be registering (the list then
  // holds only Plain Text, Log, …): reopen the pick until the full list is there.
  await vs.runCommand('Change Language Mode');
  let shown = Date.now();
  const languages = await poll('the language list', 90_000, async () => {
    const items = await vs.quickPickItems();
    if (items.includes('Batch')) return items;
    if (Date.now() - shown > 5_000) {
      await vs.page.keyboard.press('Escape');
      await vs.runCommand('Change Language Mode');
      shown = Date.now();
    }
    return undefined;
  });
  assert.ok(!languages.includes('JSON'), 'JSON is off screen in the long list, so pickQuickItem must filter');
  await vs.pickQuickItem('JSON');
  await poll('the status bar to show JSON', 30_000, async () => (await vs.statusBar()).find((e) => e.text === 'JSON'));

  await vs.runCommand('Go to Line/Column...');
  await vs.submitQuickInput(':1:3');
  await poll('the cursor position in the status bar', 30_000, async () =>
    (await vs.statusBar()).find((e) => /Ln 1, Col 3/.test(e.text)),
  );

  await vs.runCommand('View: Close Editor');
  const question = await vs.clickDialogButton("Don't Save");
  assert.match(question, /Do you want to save/);
  assert.equal(await vs.page.locator('.part.editor .monaco-editor').count(), 0, 'the editor closed');

  await assert.rejects(vs.runCommand('MCP Host: No Such Command Here'), /is not in the palette/);
  await vs.screenshot('done');
});

test(
  'dispose fails a session whose extension host log has an error from our extension, or whose process outlives code-server',
  { timeout: 600_000 },
  async (t) => {
    const vs = await startVSCode({ workspace: 'empty', name: 'harness-dispose', settings: TERMINAL_SETTINGS });
    t.after(() => vs.dispose().catch(() => undefined));
    await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
    // The check reads the log this VS Code writes: it names our extension (a moved log would pass everything).
    const logs = await poll('the extension host log naming our extension', 60_000, async () => {
      const files = extensionHostLogFiles(vs.userDataDir).filter((f) => /mcp-host/i.test(readFileSync(f, 'utf8')));
      return files.length > 0 ? files : undefined;
    });
    assert.deepEqual(extensionHostErrors(vs.userDataDir), []);
    // The error of the CI run that found the tree race, as VS Code writes it.
    appendFileSync(
      logs[0]!,
      `${new Date().toISOString().replace('T', ' ').slice(0, 23)} [error] Error: No tree item with id '1/server/everything/tools' found.\n`,
    );
    // A process that leaves its parent, as a server's daemon would: the tree kill cannot find it.
    await openTerminal(vs, 120_000);
    await runInTerminal(vs, '(setsid sleep 3599 &)', 60_000);
    const entry = `${SESSION_ENV}=${vs.root}`;
    const orphan = await poll('the detached sleep', 60_000, async () =>
      processesWithEnv(entry).find((p) => p.cmd === 'sleep 3599'),
    );
    await assert.rejects(vs.dispose(), (err: Error) => {
      assert.match(
        err.message,
        /1 error\(s\) from our extension[\s\S]*No tree item with id '1\/server\/everything\/tools'/,
      );
      assert.match(
        err.message,
        new RegExp(`1 process\\(es\\) of the session outlived code-server[\\s\\S]*${orphan.pid} sleep 3599`),
      );
      return true;
    });
    assert.deepEqual(processesWithEnv(entry), [], 'dispose killed it');
  },
);

/** Processes (any owner) whose command line mentions `dir`. */
function processesMentioning(dir: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(dir)) hits.push(`${name}: ${cmd.slice(0, 160)}`);
    } catch {
      // exited meanwhile
    }
  }
  return hits;
}

for (const sig of ['SIGINT', 'SIGKILL'] as const) {
  test(
    `a test process stopped by ${sig} leaves no code-server process and no temp folder`,
    { timeout: 600_000 },
    async (t) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/e2e/support/hold-session.ts')], {
        cwd: repoRoot,
        // The same build as this process: the child must not package the working tree again.
        env: { ...process.env, MCP_HOST_E2E_VSIX: packagedVsix() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      t.after(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      });

      const line = await new Promise<string>((resolve, reject) => {
        const rl = createInterface({ input: child.stdout });
        rl.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`hold-session exited (${code}) before starting: ${stderr}`)));
      });
      const { serverPid, root } = JSON.parse(line) as { serverPid: number; root: string };
      assert.ok(existsSync(root), 'the session folder exists while it runs');
      assert.ok(processesMentioning(root).length > 0, 'code-server runs');

      child.kill(sig);
      await exited;
      // SIGINT: the harness's signal hook kills the tree at once. SIGKILL: no hook runs; the
      // watchdog notices within a second or two.
      await poll(`code-server (${serverPid}) and its children to be gone`, 60_000, async () =>
        processesMentioning(root).length === 0 ? true : undefined,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}; still running: ${processesMentioning(root).join('\n')}`);
      });
      await poll(`${root} to be removed`, 60_000, async () => (existsSync(root) ? undefined : true));
    },
  );
}
