// The end-to-end harness: real VS Code (code-server 4.139.1 by default, or another version side by side) with the packaged extension
// installed, driven through headless Debian Chromium by playwright-core.
//
//   const vs = await startVSCode({ workspace: 'empty' });
//   try { await vs.runCommand('MCP Host: Show Logs'); ... } finally { await vs.dispose(); }
//
// Every session gets fresh temp folders (user data, extensions, HOME, a copy of the fixture
// workspace) and its own code-server on a port the OS picks. dispose() stops code-server's whole
// process tree and the browser and removes the folders; an exit/signal hook and a watchdog do the
// same if the test runner is interrupted or killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { filesUnder } from './support/files.js';
import {
  SESSION_ENV,
  killTree,
  killTreeSync,
  processesWithEnv,
  reapSession,
  startWatchdog,
} from './support/processes.js';
import {
  artifactsDir,
  chromiumPath,
  codeServer,
  fixturesDir,
  installExtension,
  packagedVsix,
  repoRoot,
} from './support/prepare.js';
import {
  MCP_HOST_CONTAINER,
  activeEditor,
  activityBarItem,
  clickInlineAction,
  clearHoversOver,
  runContextMenuEntry,
  clickDialogButton,
  editorText,
  notificationMessages,
  outputChannelText,
  pickQuickItem,
  poll,
  quickPickItems,
  runCommand,
  showViewContainer,
  shownOutput,
  statusBarEntries,
  submitQuickInput,
  treeRow,
  viewPane,
  waitForWorkbench,
} from './support/workbench.js';

export { artifactsDir, fixturesDir, packagedVsix, repoRoot } from './support/prepare.js';
export { poll } from './support/workbench.js';
export { killMarked, pidsWith } from './support/processes.js';

/** server-everything's entry in this repo's node_modules: e2e workspaces run it with `node`, no network. */
export const EVERYTHING = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** Options of {@link startVSCode}. */
export interface StartOptions {
  /** A fixture folder name under test/e2e/fixtures, or an absolute path. It is copied to a temp dir. */
  workspace: string;
  /** Extra user settings (merged over the harness defaults, which keep the welcome page away). */
  settings?: Record<string, unknown>;
  /**
   * Settings of the machine code-server runs on (`Machine/settings.json`): where a `machine`-scoped
   * setting such as `mcpHost.managedConfigPath` must be for a remote window (code-server's is one);
   * in the user settings VS Code ignores it there.
   */
  machineSettings?: Record<string, unknown>;
  /** Extra environment for code-server and so for the extension host and the MCP servers it starts. */
  env?: Record<string, string>;
  /** Trust the workspace (default true). `false` opens it in Restricted Mode without a prompt. */
  trusted?: boolean;
  /** Prefix of screenshots and logs in test/e2e/.artifacts (default: the workspace's name). */
  name?: string;
  /** Install this .vsix instead of the packaged build (e.g. to prove a test fails on a broken one). */
  vsix?: string;
  /** `false`: VS Code without our extension (bench/vscode-mcp.ts measures VS Code's own MCP so). */
  extension?: boolean;
  /**
   * The code-server release to run (default: scripts/code-server.mjs's CODE_SERVER_VERSION, the
   * current VS Code). E.g. '4.100.3' for VS Code 1.100, the lowest supported release (the smoke
   * set); installed side by side into .cache/ (scripts/e2e.mjs installs the versions its files name here).
   */
  codeServer?: string;
  /** How long to wait for code-server and the workbench (default 120 s: a loaded 2-core machine is slow). */
  startTimeoutMs?: number;
  /**
   * Extension host log errors from our extension that this test provokes on purpose; dispose()
   * fails the test on any other (see {@link extensionHostErrors}).
   */
  allowExtensionHostErrors?: RegExp[];
}

/** A running VS Code with our extension, and the helpers to drive it. */
export interface VSCode {
  /** pid of the code-server process (leader of its own process group). */
  readonly serverPid: number;
  /** The session's temp folder (user data, extensions, home, workspace copy); removed by dispose(). */
  readonly root: string;
  /** The Playwright page showing the workbench. */
  readonly page: Page;
  readonly browser: Browser;
  /** The workbench URL (http://127.0.0.1:PORT/?folder=…). */
  readonly url: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The temp copy of the fixture workspace that VS Code has open. */
  readonly workspaceDir: string;
  /** HOME of code-server and its children (keeps ~/.claude, ~/.cursor … of the machine out). */
  readonly homeDir: string;
  /** Default timeout of the helpers, in ms. */
  readonly timeoutMs: number;
  /** Everything code-server printed so far (stdout and stderr, in order). */
  logs(): string;
  /** Saves a PNG of the page to test/e2e/.artifacts/<name>-<shot>.png and returns its path. */
  screenshot(shot: string): Promise<string>;
  /** Runs a palette command by its full title, e.g. "MCP Host: Show Logs" (F1, type, pick the exact entry). */
  runCommand(title: string): Promise<void>;
  /** The MCP Host item in the activity bar. */
  activityBarItem(): Locator;
  /** Shows the MCP Host view container (clicks its activity-bar item unless already shown). */
  focusMcpHostView(): Promise<void>;
  /** The pane of the `mcpHost.servers` view ("Servers"); call focusMcpHostView() first. */
  serversView(): Locator;
  /** Waits for a row of the `mcpHost.servers` tree containing `text`; shows the view first. */
  waitForTreeItem(text: string | RegExp, timeoutMs?: number): Promise<Locator>;
  /** Clicks a tree row containing `text` (button: 'right' opens its context menu). */
  clickTreeItem(text: string | RegExp, options?: { button?: 'left' | 'right' }): Promise<void>;
  /**
   * Expands the servers-view row containing `text` and returns once it shows as expanded. A click
   * toggles (an expanded row would close), and a click on a row that is not focused yet may only
   * select it: so it looks first, and clicks only a row that does not have the keyboard (ArrowRight then).
   */
  expandTreeItem(text: string | RegExp): Promise<void>;
  /** Labels of every rendered row of the `mcpHost.servers` tree. */
  treeItems(): Promise<string[]>;
  /** Text of the active editor's rendered lines (scroll for long documents). */
  activeEditorText(): Promise<string>;
  /** Messages of the notification toasts on screen. */
  notifications(): Promise<string[]>;
  /** Waits for a notification toast whose message matches and returns the message. */
  waitForNotification(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Status bar entries: VS Code's element id, visible text and aria label. */
  statusBar(): Promise<{ id: string; text: string; label: string }[]>;
  /** Shows channel `name` in the Output panel and returns its rendered text. */
  outputChannel(name: string): Promise<string>;
  /** The channel the Output panel shows now and its text, without changing anything; undefined if hidden. */
  shownOutput(): Promise<{ channel: string; text: string } | undefined>;
  /** Waits until channel `name`'s rendered text matches `pattern`, and returns it. */
  waitForOutput(name: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * Content of an extension output channel read from its log file on disk (log output channels
   * are written to user-data/logs/…/exthost/<extension>/<name>.log); undefined until it exists.
   * Use this to wait for activation or background work without touching the UI.
   */
  readLogFile(channelName: string): string | undefined;
  /** Waits until the log file of `channelName` matches `pattern`, and returns its content. */
  waitForLogFile(channelName: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Labels of the rows the open quick pick shows. */
  quickPickItems(): Promise<string[]>;
  /** Clicks the quick pick row labelled exactly `label` (or matching a RegExp). */
  pickQuickItem(label: string | RegExp): Promise<void>;
  /** Fills the open input box / quick input with `value` and presses Enter. */
  submitQuickInput(value: string): Promise<void>;
  /** Waits for a modal dialog, clicks the button labelled exactly `label`, returns the dialog's text. */
  clickDialogButton(label: string): Promise<string>;
  /** Runs the entry labelled exactly `label` of the open context menu (see runContextMenuEntry). */
  runContextMenuEntry(label: string): Promise<void>;
  /**
   * Right-clicks the servers-view row matching `row` and runs `item` from its context menu with the
   * keyboard (see runContextMenuEntry: a mouse click on a menu that has just opened can be ignored).
   * Fails at once, naming the entries, when the menu lacks `item`.
   */
  contextAction(row: string | RegExp, item: string): Promise<void>;
  /** Clicks the inline action button titled `title` on the servers-view row matching `row`. */
  inlineAction(row: string | RegExp, title: string): Promise<void>;
  /** Reloads the window (Developer: Reload Window) and waits for the workbench again. */
  reload(): Promise<void>;
  /** Error lines of the extension host log that come from our extension (see {@link extensionHostErrors}). */
  extensionHostErrors(): string[];
  /**
   * Saves `<name>-last.png` and `<name>-code-server.log` to the artifacts folder, stops the browser
   * and code-server's whole process tree, and removes the temp folders. Idempotent. Rejects (so the
   * test fails) when the extension host log has an error from our extension that the test did not
   * allow (StartOptions.allowExtensionHostErrors); the log is saved as `<name>-exthost.log`. Rejects
   * too when a process of the session (found by SESSION_ENV in its environment) outlives code-server's
   * tree kill by 10 s: it is killed then, and named in the error.
   */
  dispose(): Promise<void>;
}

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  // VS Code 1.139 wraps Markdown and pins headings over the text (sticky scroll): both split or
  // hide the rendered lines editorText() reads. Its chat view in the secondary side bar only
  // takes room from the editor.
  'editor.wordWrap': 'off',
  '[markdown]': { 'editor.wordWrap': 'off' },
  'editor.stickyScroll.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // The behaviour before the one-copy offer, so that offer stays out of tests about other things;
  // tests of the offer set 'ask' (shared-servers.e2e.test.ts).
  'mcpHost.sharedServers': 'both',
};

// Flags from DESIGN.md; --disable-dev-shm-usage keeps Chromium alive in small containers.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; publisher: string };
/** Lines VS Code logs about our extension: its id, our view and command ids, or a tree item of ours. */
const OURS = new RegExp(
  `${pkg.publisher}\\.${pkg.name}|\\bmcpHost\\.|No tree item with id '1/(group|server|problem)/`,
  'i',
);

/** The extension host logs under `userDataDir` (VS Code writes `exthost.log` per host; code-server's is the remote one). */
export function extensionHostLogFiles(userDataDir: string): string[] {
  return filesUnder(join(userDataDir, 'logs')).filter((p) => /(^|[\\/])(remote)?exthost\.log$/.test(p));
}

/** Error lines of the extension host logs under `userDataDir` that come from our extension. */
export function extensionHostErrors(userDataDir: string): string[] {
  const lines: string[] = [];
  for (const p of extensionHostLogFiles(userDataDir)) {
    let text: string;
    try {
      text = readFileSync(p, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (/\[error\]/.test(line) && OURS.test(line)) lines.push(line);
  }
  return lines;
}

/** Sessions not yet disposed, for the interrupt hooks. */
const live = new Set<{ pid: number; root: string }>();
let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  const hardStop = (): void => {
    for (const s of live) {
      killTreeSync(s.pid);
      for (const p of processesWithEnv(`${SESSION_ENV}=${s.root}`)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      rmSync(s.root, { recursive: true, force: true });
    }
    live.clear();
  };
  process.on('exit', hardStop);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      hardStop();
      process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const)[sig]);
    });
  }
}

function resolveWorkspace(workspace: string): string {
  const dir = isAbsolute(workspace) ? workspace : join(fixturesDir, workspace);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`fixture workspace not found: ${dir}`);
  return dir;
}

/** Waits for code-server to print the address it listens on (it was started on port 0). */
function waitForListening(child: ChildProcess, output: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`code-server did not start within ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    const onData = (): void => {
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(output.join(''));
      if (m) {
        cleanup();
        resolve(m[1]!);
      }
    };
    const onExit = (code: number | null, sig: string | null): void => {
      cleanup();
      reject(new Error(`code-server exited (${code ?? sig}) before listening:\n${output.join('')}`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
    onData();
  });
}

function findLogFile(userDataDir: string, channelName: string): string | undefined {
  const want = `${channelName}.log`;
  let best: { path: string; mtime: number } | undefined;
  for (const p of filesUnder(join(userDataDir, 'logs'))) {
    const n = basename(p);
    if (n !== want && !n.endsWith(`-${want}`)) continue;
    let mtime: number;
    try {
      mtime = statSync(p).mtimeMs;
    } catch {
      continue;
    }
    if (!best || mtime > best.mtime) best = { path: p, mtime };
  }
  return best?.path;
}

/**
 * Starts code-server with the packaged extension on a copy of `options.workspace`, opens it in
 * headless Chromium and waits for the workbench. Always pair with `dispose()` in a `finally` /
 * `t.after`.
 */
export async function startVSCode(options: StartOptions): Promise<VSCode> {
  installHooks();
  const timeoutMs = 60_000;
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const fixture = resolveWorkspace(options.workspace);
  const name = options.name ?? basename(fixture);
  const vsix = options.extension === false ? undefined : (options.vsix ?? packagedVsix());
  const cs = codeServer(options.codeServer);
  const executablePath = chromiumPath();

  const root = mkdtempSync(join(tmpdir(), 'mcp-host-e2e-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const homeDir = join(root, 'home');
  const workspaceDir = join(root, basename(fixture));
  for (const d of [userDataDir, extensionsDir, homeDir, join(userDataDir, 'User')]) mkdirSync(d, { recursive: true });
  cpSync(fixture, workspaceDir, { recursive: true });

  const trusted = options.trusted ?? true;
  const settings = {
    ...DEFAULT_SETTINGS,
    ...(trusted
      ? { 'security.workspace.trust.enabled': false }
      : {
          'security.workspace.trust.enabled': true,
          'security.workspace.trust.startupPrompt': 'never',
          'security.workspace.trust.banner': 'never',
        }),
    ...options.settings,
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  if (options.machineSettings) {
    mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
    writeFileSync(join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(options.machineSettings, null, 2));
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: homeDir,
    XDG_CONFIG_HOME: join(homeDir, '.config'),
    XDG_DATA_HOME: join(homeDir, '.local', 'share'),
    XDG_CACHE_HOME: join(homeDir, '.cache'),
    CLAUDE_CONFIG_DIR: join(homeDir, '.claude'),
    ...options.env,
    [SESSION_ENV]: root,
  };
  delete env.VSCODE_IPC_HOOK_CLI;
  delete env.NODE_OPTIONS;

  mkdirSync(artifactsDir, { recursive: true });
  const output: string[] = [];
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  let watchdogPid: number | undefined;
  let record: { pid: number; root: string } | undefined;
  let disposed = false;

  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    // Read before the folders go; the check fails the test only after everything is cleaned up.
    const allowed = options.allowExtensionHostErrors ?? [];
    const errors = extensionHostErrors(userDataDir).filter((l) => !allowed.some((re) => re.test(l)));
    if (errors.length > 0) {
      for (const p of filesUnder(join(userDataDir, 'logs')))
        if (/exthost\.log$/.test(p)) {
          try {
            cpSync(p, join(artifactsDir, `${name}-${basename(p)}`));
          } catch {
            // artifacts are best effort
          }
        }
    }
    if (browser) {
      // The last screen is what a failing test's reader wants to see first.
      const pages = browser.contexts().flatMap((c) => c.pages());
      await pages[0]
        ?.screenshot({ path: join(artifactsDir, `${name}-last.png`), timeout: 10_000 })
        .catch(() => undefined);
      await browser.close().catch(() => undefined);
    }
    if (child?.pid) await killTree(child.pid);
    // The tree kill walks parent links; a process that left its parent is found by its environment.
    const outlived = await reapSession(`${SESSION_ENV}=${root}`, 10_000);
    if (watchdogPid) {
      try {
        process.kill(watchdogPid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (record) live.delete(record);
    try {
      writeFileSync(join(artifactsDir, `${name}-code-server.log`), output.join(''));
    } catch {
      // artifacts are best effort
    }
    rmSync(root, { recursive: true, force: true });
    const problems = [
      ...(errors.length > 0
        ? [`the extension host log has ${errors.length} error(s) from our extension:\n${errors.join('\n')}`]
        : []),
      ...(outlived.length > 0
        ? [
            `${outlived.length} process(es) of the session outlived code-server (killed now):\n${outlived
              .map((p) => `${p.pid} ${p.cmd.slice(0, 200)}`)
              .join('\n')}`,
          ]
        : []),
    ];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  };

  try {
    if (vsix) installExtension(vsix, extensionsDir, userDataDir, env, cs);
    child = spawn(
      cs.node,
      [
        cs.entry,
        '--auth',
        'none',
        '--bind-addr',
        '127.0.0.1:0',
        '--config',
        join(root, 'code-server.yaml'),
        '--extensions-dir',
        extensionsDir,
        '--user-data-dir',
        userDataDir,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-getting-started-override',
        workspaceDir,
      ],
      // Own process group, so the whole tree can be signalled at once.
      { env, cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const pid = child.pid;
    if (pid === undefined) throw new Error('code-server could not be spawned');
    record = { pid, root };
    live.add(record);
    watchdogPid = startWatchdog(pid, root);
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => output.push(d));
    child.stderr!.on('data', (d: string) => output.push(d));

    const base = await waitForListening(child, output, startTimeoutMs);
    const url = `${base}/?folder=${encodeURIComponent(workspaceDir)}`;
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true, timeout: startTimeoutMs });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(timeoutMs);
    await page.goto(url, { timeout: startTimeoutMs });
    await waitForWorkbench(page, startTimeoutMs);

    const serversView = (): Locator => viewPane(page, MCP_HOST_CONTAINER, 'Servers');
    const focusMcpHostView = (): Promise<void> => showViewContainer(page, 'MCP Host', timeoutMs);
    const readLogFile = (channelName: string): string | undefined => {
      const file = findLogFile(userDataDir, channelName);
      return file ? readFileSync(file, 'utf8') : undefined;
    };

    const vs: VSCode = {
      serverPid: pid,
      root,
      page,
      browser,
      url,
      userDataDir,
      extensionsDir,
      workspaceDir,
      homeDir,
      timeoutMs,
      logs: () => output.join(''),
      screenshot: async (shot) => {
        const path = join(artifactsDir, `${name}-${shot}.png`);
        await page.screenshot({ path });
        return path;
      },
      runCommand: (title) => runCommand(page, title, timeoutMs),
      activityBarItem: () => activityBarItem(page, 'MCP Host'),
      focusMcpHostView,
      serversView,
      waitForTreeItem: async (text, t = timeoutMs) => {
        await focusMcpHostView();
        const row = treeRow(serversView(), text).first();
        await row.waitFor({ state: 'visible', timeout: t });
        return row;
      },
      clickTreeItem: async (text, opts) => {
        const row = await vs.waitForTreeItem(text);
        // A hover card left by the previous row can lie over this row and take the click.
        await clearHoversOver(page, row, timeoutMs);
        await row.click({ button: opts?.button ?? 'left' });
      },
      expandTreeItem: async (text) => {
        await poll(`the tree row ${String(text)} to expand`, timeoutMs, async () => {
          const row = await vs.waitForTreeItem(text);
          if ((await row.getAttribute('aria-expanded')) === 'true') return true;
          const keyboard = await row.evaluate(
            (el) =>
              el.classList.contains('focused') && el.closest('.monaco-list')?.contains(document.activeElement) === true,
          );
          if (keyboard) await page.keyboard.press('ArrowRight');
          else {
            await clearHoversOver(page, row, timeoutMs);
            await row.click();
          }
          return row
            .and(page.locator('[aria-expanded="true"]'))
            .waitFor({ state: 'visible', timeout: 3000 })
            .then(
              () => true,
              () => undefined,
            );
        });
      },
      treeItems: async () => {
        await focusMcpHostView();
        return serversView()
          .locator('.monaco-list-row')
          .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
      },
      activeEditorText: () => editorText(activeEditor(page)),
      notifications: () => notificationMessages(page),
      waitForNotification: (match, t = timeoutMs) =>
        poll(`a notification matching ${String(match)}`, t, async () =>
          (await notificationMessages(page)).find((m) =>
            typeof match === 'string' ? m.includes(match) : match.test(m),
          ),
        ),
      statusBar: () => statusBarEntries(page),
      shownOutput: () => shownOutput(page),
      outputChannel: (channel) => outputChannelText(page, channel, timeoutMs),
      waitForOutput: (channel, pattern, t = timeoutMs) =>
        poll(`output channel "${channel}" to match ${String(pattern)}`, t, async () => {
          const text = await outputChannelText(page, channel, timeoutMs);
          return pattern.test(text) ? text : undefined;
        }),
      readLogFile,
      waitForLogFile: (channelName, pattern, t = timeoutMs) =>
        poll(`log file of "${channelName}" to match ${String(pattern)}`, t, async () => {
          const text = readLogFile(channelName);
          return text !== undefined && pattern.test(text) ? text : undefined;
        }),
      quickPickItems: () => quickPickItems(page),
      pickQuickItem: (label) => pickQuickItem(page, label, timeoutMs),
      submitQuickInput: (value) => submitQuickInput(page, value, timeoutMs),
      clickDialogButton: (label) => clickDialogButton(page, label, timeoutMs),
      runContextMenuEntry: (label) => runContextMenuEntry(page, label, timeoutMs),
      contextAction: async (row, item) => {
        await vs.clickTreeItem(row, { button: 'right' });
        await runContextMenuEntry(page, item, timeoutMs);
      },
      inlineAction: async (row, title) => clickInlineAction(await vs.waitForTreeItem(row), title, timeoutMs),
      reload: async () => {
        await runCommand(page, 'Developer: Reload Window', timeoutMs);
        await page.waitForLoadState('load', { timeout: startTimeoutMs });
        await waitForWorkbench(page, startTimeoutMs);
      },
      extensionHostErrors: () => extensionHostErrors(userDataDir),
      dispose,
    };
    return vs;
  } catch (err) {
    await dispose().catch(() => undefined);
    throw err;
  }
}

/**
 * Runs the subtests of a scenario in order: later steps build on earlier ones, so after a failure
 * they are skipped instead of each timing out. A failing step leaves a screenshot and calls
 * `onFailure` (for extra diagnostics) before its error is reported.
 */
export function stepRunner(
  t: TestContext,
  vs: VSCode,
  onFailure?: () => void,
): (name: string, fn: () => Promise<void>) => Promise<void> {
  let failed: string | undefined;
  return (name, fn) =>
    t.test(name, { skip: failed ? `an earlier step failed: ${failed}` : false }, async () => {
      try {
        await fn();
      } catch (e) {
        failed = name;
        await vs.screenshot(`failed-${name.slice(0, 30).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
        onFailure?.();
        throw e;
      }
    });
}
