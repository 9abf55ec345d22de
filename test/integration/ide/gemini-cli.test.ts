/**
 * The real Gemini CLI (`@google/gemini-cli`, pinned) against the Gemini IDE server on a fake
 * editor port, with a fake model API on loopback. It runs interactive under a pseudo-terminal
 * (`script`), as in an integrated terminal: it finds the server by the discovery file, and by the
 * terminal variables alone; its first model request carries the open file, cursor and selection;
 * its proposed edit opens our diff; Accept writes the file (with the user's edit), Reject leaves it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { GeminiIdeServer } from '../../../src/core/ide/gemini/server.js';
import { nullLogger } from '../../../src/core/ports.js';
import { killMarked, MARKER_VAR, reapMarked, startReaper } from './gemini-reaper.js';
import { FakeEditor } from './fake-editor.js';
import { editorContext, FakeGeminiApi, type ApiRequest } from './fake-gemini-api.js';

const GEMINI = join(__dirname, '..', '..', '..', 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
const DEADLINE_MS = 120_000;
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

// eslint-disable-next-line no-control-regex -- terminal escape sequences start with control characters
const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;?]*[a-zA-Z]|\x1b\][^\x07]*\x07/g, '');

const live = new Set<Terminal>();
// A test that times out never reaches its finally; the file's process still exits through here.
process.once('exit', () => {
  for (const t of live) t.killNow();
});

/** Gemini CLI under a pseudo-terminal; `screen` is everything it drew so far, without escapes. */
class Terminal {
  private out = '';
  private waiters: { re: RegExp; resolve: () => void }[] = [];
  private readonly reaper: { stop(): void };
  private constructor(
    private readonly child: ChildProcess,
    private readonly marker: string,
  ) {
    live.add(this);
    this.reaper = startReaper(marker);
    const take = (d: Buffer): void => {
      this.out += d.toString('utf8');
      const screen = this.screen;
      for (const w of [...this.waiters]) {
        if (!w.re.test(screen)) continue;
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
  }

  static start(cwd: string, env: Record<string, string>): Terminal {
    // A pty of a real size: with none, Gemini CLI draws no input box.
    const cmd = `stty rows 40 cols 120; exec '${process.execPath}' '${GEMINI}'`;
    const marker = randomUUID();
    return new Terminal(
      spawn('script', ['-qfec', cmd, '/dev/null'], {
        cwd,
        env: { ...env, [MARKER_VAR]: marker },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      }),
      marker,
    );
  }

  get screen(): string {
    return stripAnsi(this.out);
  }

  waitFor(re: RegExp, what: string): Promise<void> {
    if (re.test(this.screen)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} on Gemini CLI's screen; it shows:\n${this.screen.slice(-2000)}`)),
        DEADLINE_MS,
      );
      this.waiters.push({
        re,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /**
   * Types the prompt, then Enter once the text is in the box (a paste with its Enter would be one
   * paste). On a loaded machine the CLI can drop an Enter that lands while it re-renders the box
   * (seen in a full CI-style run: the prompt sat typed and no request came), so Enter is pressed
   * again every 3 s, up to 10 times, until `reached` (the model API got the prompt) settles; an
   * Enter on the emptied box after submission does nothing.
   */
  async submit(prompt: string, reached: Promise<unknown>): Promise<void> {
    this.child.stdin?.write(prompt);
    await this.waitFor(new RegExp(`> +${prompt.slice(0, 20)}`), 'typed prompt');
    let settled = false;
    const done = reached.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let i = 0; i < 10 && !settled; i++) {
      this.child.stdin?.write('\r');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((r) => (timer = setTimeout(r, 3000)))]);
      clearTimeout(timer);
    }
  }

  /** Every process of the run (script, the CLI's launcher and its relaunched child): see gemini-reaper.ts. */
  killNow(): void {
    killMarked(this.marker);
  }

  /** Kills the run and waits, with a deadline, until none of its processes is left. */
  async kill(): Promise<void> {
    const left = await reapMarked(this.marker);
    this.reaper.stop();
    live.delete(this);
    assert.deepEqual(left, [], 'every process of the Gemini CLI run is gone');
  }
}

interface Setup {
  root: string;
  work: string;
  file: string;
  editor: FakeEditor;
  api: FakeGeminiApi;
  env: Record<string, string>;
}

async function setup(): Promise<Setup> {
  const root = mkdtempSync(join(tmpdir(), 'gemini-cli-'));
  roots.push(root);
  const home = join(root, 'home');
  const work = join(root, 'work');
  const tmp = join(root, 'tmp');
  for (const d of [join(home, '.gemini'), work, tmp]) mkdirSync(d, { recursive: true });
  // Asked once per user: whether to set up the terminal's keybindings (offered when TERM_PROGRAM is vscode).
  writeFileSync(join(home, '.gemini', 'state.json'), JSON.stringify({ terminalSetupPromptShown: true }));
  const file = join(work, 'a.txt');
  writeFileSync(file, 'hello\n');
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      ide: { enabled: true, hasSeenNudge: true },
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { disableAutoUpdate: true },
      privacy: { usageStatisticsEnabled: false },
    }),
  );
  const editor = new FakeEditor();
  editor.folders = [{ name: 'work', uri: `file://${work}`, path: work }];
  editor.editors = [
    {
      uri: `file://${file}`,
      isActive: true,
      isPinned: false,
      isPreview: false,
      isDirty: false,
      label: 'a.txt',
      groupIndex: 0,
      isGroupActive: true,
      fileName: file,
      isUntitled: false,
    },
  ];
  editor.selection = {
    text: 'hello',
    filePath: file,
    fileUrl: `file://${file}`,
    selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 }, isEmpty: false },
  };
  // The model asks to rewrite a.txt, then ends its turn.
  const api = await FakeGeminiApi.start((_r, i) =>
    i === 0
      ? [{ functionCall: { name: 'write_file', args: { file_path: file, content: 'hello world\n' } } }]
      : [{ text: 'Done.' }],
  );
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The outer terminal's IDE variables (if any) must not decide which server the CLI finds.
    // CI=true or GITHUB_ACTIONS=true (.ci/run sets CI) makes Gemini CLI headless (isHeadlessMode in its core): no input box.
    if (v === undefined || k.startsWith('GEMINI_CLI_IDE_') || k === 'TERM_PROGRAM') continue;
    if (k === 'CI' || k === 'GITHUB_ACTIONS') continue;
    base[k] = v;
  }
  const env = {
    ...base,
    HOME: home,
    // os.tmpdir() of the CLI: where it looks for discovery files.
    TMPDIR: tmp,
    GEMINI_API_KEY: 'dummy',
    GOOGLE_GEMINI_BASE_URL: api.url,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // In a container Gemini CLI would dial host.docker.internal; a dev container keeps it on 127.0.0.1.
    REMOTE_CONTAINERS: '1',
    TERM: 'xterm-256color',
    // Gemini CLI otherwise starts itself a second time with a larger heap (getNodeMemoryArgs in its
    // bundle): two loads of its large bundle per run, half the CPU this file costs `npm test`. The
    // IDE interface under test is the same in either process.
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  return { root, work, file, editor, api, env };
}

/** A wait that, when it fails, says what the CLI showed. */
async function seen<T>(term: Terminal, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw new Error(`${String(err)}; Gemini CLI shows:\n${term.screen.slice(-2500)}`);
  }
}

/** The CLI shows its input box, holds its event stream and has listed the tools: the editor context has been sent, and an edit goes to the editor's diff. */
async function ready(term: Terminal, server: GeminiIdeServer): Promise<void> {
  await term.waitFor(/Type your message/, 'input box');
  await seen(
    term,
    new Promise<void>((resolve) => {
      if (server.clientCount() > 0) return resolve();
      const sub = server.onDidChange(() => server.clientCount() > 0 && (sub.dispose(), resolve()));
    }),
  );
}

const firstTurn = (r: ApiRequest): boolean => r.path.includes(':streamGenerateContent') && r.raw.includes('make a.txt');

const SKIP = process.platform === 'win32';

test(
  'found by the discovery file: gets the open file and selection; Accept writes the edited proposal',
  { timeout: 4 * DEADLINE_MS, skip: SKIP },
  async () => {
    const s = await setup();
    // Named for this process, as the editor's file is named for the editor: the CLI walks up past `script`'s shell to it.
    const server = await GeminiIdeServer.start({
      editor: s.editor,
      logger: nullLogger,
      discoveryDir: join(s.env.TMPDIR!, 'gemini', 'ide'),
      idePid: process.pid,
    });
    const term = Terminal.start(s.work, s.env);
    try {
      await ready(term, server);
      const diff = seen(term, s.editor.nextDiff());
      diff.catch(() => undefined); // Awaited below; its deadline may pass while an earlier step waits.
      await term.submit('Please make a.txt say hello world', s.api.next(firstTurn));
      const ctx = editorContext(await seen(term, s.api.next(firstTurn)));
      assert.deepEqual(ctx.activeFile, { path: s.file, cursor: { line: 1, character: 6 }, selectedText: 'hello' });
      const d = await diff;
      assert.equal(d.req.newFilePath, s.file);
      assert.equal(d.req.newFileContents, 'hello world\n');
      assert.equal(readFileSync(s.file, 'utf8'), 'hello\n', 'nothing written before the user decides');
      d.decide({ kind: 'accepted', contents: 'hello world, edited in the diff\n' });
      // The CLI writes the file before it reports the tool's result to the model.
      const turn1 = await s.api.next(firstTurn);
      await seen(
        term,
        s.api.next(
          (r) => r !== turn1 && r.path.includes(':streamGenerateContent') && r.raw.includes('"functionResponse"'),
        ),
      );
      assert.equal(readFileSync(s.file, 'utf8'), 'hello world, edited in the diff\n');
    } finally {
      await term.kill();
      await server.dispose();
      await s.api.close();
    }
  },
);

test(
  'found by the terminal variables alone: its edit opens our diff; Reject leaves the file unchanged',
  { timeout: 4 * DEADLINE_MS, skip: SKIP },
  async () => {
    const s = await setup();
    // No discovery file where the CLI looks: only the variables an integrated terminal gets.
    const server = await GeminiIdeServer.start({
      editor: s.editor,
      logger: nullLogger,
      discoveryDir: join(s.root, 'elsewhere'),
      idePid: process.pid,
    });
    const { GEMINI_CLI_IDE_PID: _pid, ...vars } = server.terminalEnvironment();
    const term = Terminal.start(s.work, { ...s.env, ...vars, TERM_PROGRAM: 'vscode' });
    try {
      await ready(term, server);
      const diff = seen(term, s.editor.nextDiff());
      diff.catch(() => undefined); // Awaited below; its deadline may pass while an earlier step waits.
      await term.submit('Please make a.txt say hello world', s.api.next(firstTurn));
      assert.equal(editorContext(await seen(term, s.api.next(firstTurn))).activeFile?.selectedText, 'hello');
      (await diff).decide({ kind: 'rejected' });
      await term.waitFor(/Rejected[\s\S]*Request cancelled/, 'the rejection');
      assert.equal(readFileSync(s.file, 'utf8'), 'hello\n');
      assert.equal(
        s.api.requests.filter((r) => r.path.includes(':streamGenerateContent')).length,
        1,
        'a rejected edit ends the turn',
      );
    } finally {
      await term.kill();
      await server.dispose();
      await s.api.close();
    }
  },
);
