// The real Gemini CLI (@google/gemini-cli, pinned) against the extension in real VS Code, with a
// fake model API on loopback: started as a user would, by typing `gemini` into VS Code's integrated
// terminal (its environment holds what the extension put there), it finds the editor once by the
// discovery file alone and once by the terminal's variables alone, gets the open file and its
// selection, and its proposed edit opens our diff: Accept leaves the writing to the CLI, which
// writes the file; Reject leaves the file unchanged.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { poll, repoRoot, startVSCode, type VSCode } from './harness.js';
import { openTerminal, runInTerminal, TERMINAL_SETTINGS, waitForTerminal } from './support/terminal.js';
import { editorContext, FakeGeminiApi, type ApiRequest } from '../integration/ide/fake-gemini-api.js';
import { MARKER_VAR, reapMarked } from '../integration/ide/gemini-reaper.js';

const GEMINI = join(repoRoot, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
const WAIT = 120_000;

const streamed = (r: ApiRequest): boolean => r.path.includes(':streamGenerateContent');
const turnOf = (file: string) => (r: ApiRequest) => streamed(r) && r.raw.includes(`make ${file} say`);

/** Selects the text of `name` in a fresh editor (opened from the Explorer), so the CLI's first context has it. */
async function selectAll(vs: VSCode, name: string): Promise<void> {
  const { page } = vs;
  await vs.runCommand('View: Show Explorer');
  const row = page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: new RegExp(`^${name}$`) });
  await poll(`${name} in the Explorer`, 60_000, async () => ((await row.count()) > 0 ? true : undefined));
  await row.first().click();
  await page.locator('.part.editor .tab.active').filter({ hasText: name }).waitFor({ state: 'visible' });
  await page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first().click();
  // The whole of a one-line file without a newline: "hello", the cursor after it.
  await page.keyboard.press('Control+A');
  await poll('the selection in the status bar', 30_000, async () =>
    (await vs.statusBar()).find((e) => /\(5 selected\)/.test(e.text)),
  );
}

/**
 * A new integrated terminal, `gemini` typed into it (with `env` first: no CI variables, which make
 * the CLI headless; `unset` names what this run must not see), waits for its input box and its
 * connection to the extension (the status bar counts it); then selects the text of `file` in the
 * editor (after the palette, whose Escape would clear a selection) and sends `prompt` from the terminal.
 */
async function runGemini(
  vs: VSCode,
  marker: string,
  opts: { unset: string[]; set: string[]; file: string; prompt: string },
): Promise<void> {
  const { page } = vs;
  await openTerminal(vs, WAIT);
  const term = page.locator('.terminal-wrapper.active .xterm').first();
  const unset = ['CI', 'GITHUB_ACTIONS', ...opts.unset].map((v) => `-u ${v}`).join(' ');
  // REMOTE_CONTAINERS: in a container Gemini CLI would dial host.docker.internal; a dev container keeps it on 127.0.0.1.
  const set = [`${MARKER_VAR}=${marker}`, 'REMOTE_CONTAINERS=1', ...opts.set].join(' ');
  await runInTerminal(vs, `env ${unset} ${set} node ${GEMINI}`, WAIT);
  await waitForTerminal(vs, /Type your message/, 'Gemini CLI’s input box', WAIT);
  await poll('the status bar to count Gemini CLI', WAIT, async () =>
    (await vs.statusBar()).find((e) => /1 agent connected/.test(e.label)),
  );
  await selectAll(vs, opts.file);
  await term.click();
  await page.keyboard.type(opts.prompt);
  await waitForTerminal(vs, new RegExp(`> +${opts.prompt.slice(0, 20)}`), 'the typed prompt', WAIT);
  await page.keyboard.press('Enter');
}

test(
  'the real Gemini CLI in VS Code’s integrated terminal: context, our diff, Accept and Reject',
  { timeout: 1_200_000 },
  async (t) => {
    const ws = mkdtempSync(join(tmpdir(), 'gemini-e2e-ws-'));
    t.after(() => rmSync(ws, { recursive: true, force: true }));
    writeFileSync(join(ws, 'a.txt'), 'hello');
    writeFileSync(join(ws, 'b.txt'), 'hello');
    // Each turn asks to rewrite the file its prompt names, then ends once the tool's result is back.
    const api = await FakeGeminiApi.start((r) => {
      if (r.raw.includes('"functionResponse"')) return [{ text: 'Done.' }];
      const file = /make (\w\.txt) say/.exec(r.raw)?.[1] ?? 'a.txt';
      return [
        {
          functionCall: {
            name: 'write_file',
            args: { file_path: join(vs.workspaceDir, file), content: 'hello world\n' },
          },
        },
      ];
    });
    t.after(() => api.close());
    const vs: VSCode = await startVSCode({
      workspace: ws,
      name: 'gemini-cli',
      settings: TERMINAL_SETTINGS,
      env: { GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    const markers: string[] = [];
    t.after(async () => {
      for (const m of markers) await reapMarked(m);
      await vs.dispose();
    });
    mkdirSync(join(vs.homeDir, '.gemini'), { recursive: true });
    writeFileSync(
      join(vs.homeDir, '.gemini', 'settings.json'),
      JSON.stringify({
        ide: { enabled: true, hasSeenNudge: true },
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true },
        privacy: { usageStatisticsEnabled: false },
      }),
    );
    // Asked once per user: whether to set up the terminal's keybindings (offered when TERM_PROGRAM is vscode).
    writeFileSync(join(vs.homeDir, '.gemini', 'state.json'), JSON.stringify({ terminalSetupPromptShown: true }));
    await vs.waitForLogFile('MCP Host', /Gemini IDE server listening on 127\.0\.0\.1:\d+/, 180_000);
    const editorAction = (label: string) =>
      vs.page.locator(
        `.part.editor .editor-group-container.active .editor-actions a.action-label[aria-label^="${label}"]`,
      );
    const accept = editorAction('Accept Proposed Change');

    await t.test(
      'found by the discovery file alone: gets a.txt and its selection; Accept, and the CLI writes it',
      async () => {
        const a = join(vs.workspaceDir, 'a.txt');
        const marker = randomUUID();
        markers.push(marker);
        // Without the terminal's variables: the CLI walks up its process tree to VS Code's discovery file.
        const vars = [
          'GEMINI_CLI_IDE_SERVER_PORT',
          'GEMINI_CLI_IDE_AUTH_TOKEN',
          'GEMINI_CLI_IDE_WORKSPACE_PATH',
          'GEMINI_CLI_IDE_PID',
        ];
        await runGemini(vs, marker, {
          unset: vars,
          set: [],
          file: 'a.txt',
          prompt: 'Please make a.txt say hello world',
        });
        const ctx = editorContext(await api.next(turnOf('a.txt')));
        assert.deepEqual(ctx.activeFile, { path: a, cursor: { line: 1, character: 6 }, selectedText: 'hello' });
        await accept.waitFor({ state: 'visible', timeout: WAIT });
        await vs.screenshot('gemini-diff');
        assert.equal(readFileSync(a, 'utf8'), 'hello', 'nothing written before the user decides');
        const result = api.next(
          (r) => streamed(r) && r.raw.includes('"functionResponse"') && r.raw.includes('make a.txt say'),
        );
        await accept.click();
        await result;
        // The editor leaves the file to the agent; Gemini CLI writes it before it reports the tool's result.
        assert.equal(readFileSync(a, 'utf8'), 'hello world\n');
        assert.deepEqual(await reapMarked(marker), []);
      },
    );

    await t.test(
      'found by the terminal variables alone: gets b.txt; Reject leaves it unchanged and ends the turn',
      async () => {
        const b = join(vs.workspaceDir, 'b.txt');
        await vs.runCommand('Terminal: Kill All Terminals');
        const marker = randomUUID();
        markers.push(marker);
        // Another os.tmpdir(): no discovery file where the CLI looks, only the variables of VS Code's terminal.
        const elsewhere = mkdtempSync(join(tmpdir(), 'gemini-e2e-tmp-'));
        t.after(() => rmSync(elsewhere, { recursive: true, force: true }));
        await runGemini(vs, marker, {
          unset: [],
          set: [`TMPDIR=${elsewhere}`],
          file: 'b.txt',
          prompt: 'Please make b.txt say hello world',
        });
        assert.equal(editorContext(await api.next(turnOf('b.txt'))).activeFile?.selectedText, 'hello');
        await accept.waitFor({ state: 'visible', timeout: WAIT });
        await editorAction('Reject Proposed Change').click();
        await waitForTerminal(
          vs,
          /Request cancelled/,
          'the rejection in the CLI (its rows above are out of view)',
          WAIT,
        );
        assert.equal(readFileSync(b, 'utf8'), 'hello');
        assert.equal(api.requests.filter(turnOf('b.txt')).length, 1, 'a rejected edit ends the turn');
        assert.deepEqual(await reapMarked(marker), []);
      },
    );
  },
);
