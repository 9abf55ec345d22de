// The editor faces of client features that editor-features.e2e.test.ts leaves out, in real VS Code
// (code-server): a `command` input of .vscode/mcp.json reaching the server's command line; a
// server that stops answering pings marked unresponsive in the tree and reconnected while a
// healthy one keeps its state (interval from the `mcpHost.ping.intervalSeconds` setting); the
// Running Tasks view listing a task with its live status, Cancel from the view, and a task that
// completes leaving it; completions of resource-template variables as you type, the second one
// narrowed by the first (`context.arguments`), and server-everything's own template; client-credentials sign-in against a real
// oidc-provider with no browser and the secret nowhere on disk or in logs; and server-everything's
// tools in the editor and in the CLI differing by exactly the tools it gates on sampling.
//
// Steps are independent after the first (a broken feature fails its own step only).
// MCP_HOST_E2E_STEP_WAIT_MS shortens the waits when proving that steps fail on a broken build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { M2M_BASIC, startOidcFixture } from '../integration/auth/oidc-fixture.js';
import { EVERYTHING, killMarked, pidsWith, poll, repoRoot, startVSCode, type VSCode } from './harness.js';
import {
  callResearchQuery,
  pickRow,
  previewText,
  quickInput,
  rowLabels,
  runCommandThenPick,
  waitForQuickInput,
} from './support/quick-input.js';
import { filesUnder } from './support/files.js';
import { liveRowText, rowText, watchFor } from './support/views.js';
import { MCP_HOST_CONTAINER, clickInlineAction, treeRow, viewPane } from './support/workbench.js';

const WAIT = Number(process.env.MCP_HOST_E2E_STEP_WAIT_MS) || 120_000;
const FIXTURE = join(repoRoot, 'test', 'fixtures', 'servers', 'client-features.mjs');
const PING_SECONDS = 2;

/** The command line of every marked process whose arguments include `needle`. */
function processesWith(mark: string, needle: string): { pid: number; line: string }[] {
  return pidsWith(mark)
    .map((pid) => {
      try {
        return { pid, line: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') };
      } catch {
        return { pid, line: '' };
      }
    })
    .filter((p) => p.line.includes(needle));
}

/**
 * Records every text a row of the MCP Host views shows, in order, from now on (a MutationObserver
 * in the page): states that last only a moment are seen without polling for them.
 */
async function recordRows(vs: VSCode): Promise<() => Promise<string[]>> {
  // A string, not a function: the test's TypeScript loader would wrap a function's inner helpers
  // in a name-keeping call that does not exist in the page.
  await vs.page.evaluate(`(() => {
    const container = ${JSON.stringify(MCP_HOST_CONTAINER)};
    window.__mcpRowsObserver?.disconnect();
    const seen = [];
    window.__mcpRows = seen;
    const scan = () => {
      for (const row of Array.from(document.querySelectorAll(container + ' .monaco-list-row'))) {
        const text = (row.getAttribute('aria-label') ?? '') + ' | ' + (row.textContent ?? '');
        if (!seen.slice(-40).includes(text)) seen.push(text);
      }
    };
    window.__mcpRowsObserver = new MutationObserver(scan);
    window.__mcpRowsObserver.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'], characterData: true });
    scan();
  })()`);
  return () => vs.page.evaluate(() => [...((window as unknown as { __mcpRows?: string[] }).__mcpRows ?? [])]);
}

test(
  'client features in the editor: command input, ping, Running Tasks, template completions, client credentials, CLI vs editor tools',
  { timeout: 1_500_000 },
  async (t) => {
    const mark = `mcp-host-client-features-e2e-${randomBytes(4).toString('hex')}`;
    const configDir = mkdtempSync(join(tmpdir(), 'mcp-host-client-features-e2e-'));
    const fx = await startOidcFixture();
    t.after(() => fx.close());
    // Every token the authorization server hands out, to look for them on disk later.
    const tokens: string[] = [];
    (fx.provider as unknown as EventEmitter).on('grant.success', (ctx: { body?: Record<string, unknown> }) => {
      const v = ctx.body?.access_token;
      if (typeof v === 'string' && v) tokens.push(v);
    });
    const env = {
      MCP_HOST_E2E_NODE: process.execPath,
      MCP_HOST_E2E_EVERYTHING: EVERYTHING,
      MCP_HOST_E2E_FIXTURE: FIXTURE,
      MCP_HOST_E2E_MARK: mark,
      MCP_HOST_E2E_OAUTH_URL: fx.mcpUrl,
      MCP_HOST_CONFIG_DIR: configDir,
    };
    const vs = await startVSCode({
      workspace: 'client-features',
      name: 'client-features',
      settings: { 'mcpHost.ping.intervalSeconds': PING_SECONDS },
      // code-server hands LOG_LEVEL to VS Code: the command input's value is this level.
      env: { ...env, LOG_LEVEL: 'debug' },
    });
    t.after(async () => {
      t.diagnostic(`host log (end):\n${hostLog().split('\n').slice(-40).join('\n')}`);
      await vs.dispose();
      killMarked(mark);
    });
    const tabs: unknown[] = [];
    vs.page.context().on('page', (p) => tabs.push(p));
    const hostLog = (): string => vs.readLogFile('MCP Host') ?? '';
    /** A step of its own (no skipping after a failure); a failure leaves a screenshot and the servers' logs. */
    const step = (name: string, fn: () => Promise<void>): Promise<void> =>
      t.test(name, async () => {
        try {
          await fn();
        } catch (e) {
          await vs.screenshot(`failed-${name.slice(0, 30).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
          for (const ch of ['MCP Host repos', 'MCP Host deaf', 'MCP Host everything'])
            t.diagnostic(`${ch}:\n${(vs.readLogFile(ch) ?? '').split('\n').slice(-25).join('\n')}`);
          throw e;
        }
      });

    await step(
      'the workspace servers are approved; everything, repos and deaf connect, m2m needs its credentials',
      async () => {
        await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
        const asked = await vs.clickDialogButton('Allow');
        assert.match(asked, /m2m/);
        await vs.focusMcpHostView();
        await vs.waitForTreeItem(/everything.*\d+ tools/, WAIT);
        await vs.waitForTreeItem(/repos.*2 tools/, WAIT);
        await vs.waitForTreeItem(/deaf.*2 tools/, WAIT);
        await vs.waitForTreeItem(/m2m.*needs authentication/, WAIT);
      },
    );

    await step('a command input: the server gets the string the command returned', async () => {
      const [repos] = await poll('the repos server process', WAIT, async () => {
        const p = processesWith(mark, 'level=');
        return p.length ? p : undefined;
      });
      // The command ran in the editor (VS Code's log level, debug in this window): not the id, not an unresolved variable.
      assert.match(repos!.line, / level=debug( |$)/, repos!.line);
      assert.doesNotMatch(repos!.line, /\$\{input:|_extensionTests/);
      // Nothing was asked: a command input runs its command instead of prompting.
      assert.equal(await quickInput(vs).widget.isVisible(), false);
    });

    await step(
      `ping: a server that stops answering is shown unresponsive and reconnected; a healthy one keeps its state`,
      async () => {
        await vs.focusMcpHostView();
        const everythingPids = processesWith(mark, 'stdio').map((p) => p.pid);
        assert.equal(everythingPids.length, 1, 'one everything process');
        const [deaf] = processesWith(mark, '--deaf-when');
        assert.ok(deaf, 'the deaf server runs');
        const rows = await recordRows(vs);
        writeFileSync(join(vs.workspaceDir, 'deafen'), '');
        const after = await poll('a new deaf process', WAIT, async () =>
          processesWith(mark, '--deaf-when').find((p) => p.pid !== deaf.pid),
        );
        await vs.waitForTreeItem(/deaf.*2 tools/, WAIT);
        const seen = await rows();
        const marked = seen.filter((l) => /deaf/.test(l) && /unresponsive/.test(l));
        t.diagnostic(
          `deaf rows seen: ${seen
            .filter((l) => /deaf/.test(l))
            .map((l) => l.split(' | ')[0])
            .join(' → ')}`,
        );
        assert.ok(
          marked.length > 0,
          `the tree showed deaf as unresponsive; rows seen:\n${seen.filter((l) => /deaf/.test(l)).join('\n')}`,
        );
        // The row may be the failed one ("…within 2000 …": the tree shortens a long message) or the
        // reconnecting one after it, which a quick reconnect replaces before the recorder sees it.
        assert.match(marked.join('\n'), new RegExp(`did not answer a ping within ${PING_SECONDS * 1000}\\b`));
        assert.match(
          hostLog() + (vs.readLogFile('MCP Host deaf') ?? ''),
          /deaf is unresponsive: it did not answer a ping/,
        );
        assert.notEqual(after.pid, deaf.pid);
        // The new process answers: it stays connected across three ping rounds (it notes each on stderr, in its log).
        const reconnectedAt = seen.length;
        await vs.waitForLogFile('MCP Host deaf', new RegExp(`fixture ${after.pid}: answered ping 3\\b`), WAIT);
        const rest = (await rows()).slice(reconnectedAt);
        assert.ok(!rest.some((l) => /deaf/.test(l) && /unresponsive/.test(l)), rest.join('\n'));
        assert.match(await rowText(vs, /deaf/, WAIT), /2 tools/);
        // everything answered every ping all along: same process, never anything but connected.
        assert.deepEqual(
          processesWith(mark, 'stdio').map((p) => p.pid),
          everythingPids,
        );
        const everythingRows = (await rows()).filter((l) => /^everything/.test(l));
        assert.ok(
          everythingRows.every((l) => /\d+ tools/.test(l)),
          everythingRows.join('\n'),
        );
        assert.doesNotMatch(hostLog(), /everything is unresponsive/);
      },
    );

    const tasksPane = () => viewPane(vs.page, MCP_HOST_CONTAINER, 'Running Tasks');

    await step(
      'Running Tasks: a task called from the palette is listed with its live status; Cancel in the view stops it',
      async () => {
        await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
        await pickRow(vs, 'slow-task');
        const row = treeRow(tasksPane(), /repos \/ slow-task/).first();
        await row.waitFor({ state: 'visible', timeout: WAIT });
        const first = await row.innerText();
        assert.match(first, /working · step \d+/);
        // The status follows the server's: the step count moves while the row is shown.
        await poll('the task status to move on', WAIT, async () => {
          const now = await row.innerText().catch(() => '');
          return /working · step \d+/.test(now) && now !== first ? true : undefined;
        });
        await clickInlineAction(row, 'Cancel Task', WAIT);
        await vs.waitForLogFile('MCP Host repos', /task \w+ \(slow-task\) cancelled/, WAIT);
        await tasksPane().waitFor({ state: 'hidden', timeout: WAIT });
        assert.match(hostLog(), /cancelling task \w+ \(repos\/slow-task\)/);
        // The palette's call ends as cancelled (the user's act), not as a failure with an error document.
        await vs.waitForLogFile('MCP Host', /repos\/slow-task cancelled by the user/, WAIT);
        assert.doesNotMatch(hostLog(), /repos\/slow-task failed/);
      },
    );

    await step(
      'Running Tasks: simulate-research-query shows its stages there and leaves the view when it completes',
      async () => {
        const rows = await recordRows(vs);
        await callResearchQuery(vs, 'tides');
        // The task lasts about four seconds: the row recorder sees it even if a poll would not.
        const stage =
          /everything \/ simulate-research-query.*working · (Gathering sources|Analyzing content|Synthesizing findings|Generating report)/;
        await poll('the task in the Running Tasks view with its stage', WAIT, async () =>
          (await rows()).some((l) => stage.test(l)) ? true : undefined,
        );
        await previewText(vs, /tides/, WAIT);
        await tasksPane().waitFor({ state: 'hidden', timeout: WAIT });
        await vs.waitForLogFile('MCP Host', /everything\/simulate-research-query done/, WAIT);
      },
    );

    await step(
      'resource-template variables complete as you type; the second is narrowed by the first (context.arguments)',
      async () => {
        await runCommandThenPick(vs, 'MCP Host: Read Resource…', /MCP Host: Read Resource/);
        await pickRow(vs, 'repository');
        await waitForQuickInput(vs, /: owner( \(1\/2\))?$/);
        await quickInput(vs).input.fill('m');
        await poll('owners starting with "m"', WAIT, async () => {
          const l = await rowLabels(vs);
          return ['modelcontextprotocol', 'microsoft', 'mozilla'].every((o) => l.includes(o)) ? true : undefined;
        });
        await quickInput(vs).input.fill('mi');
        await poll('owners starting with "mi"', WAIT, async () => {
          const l = await rowLabels(vs);
          return l.includes('microsoft') && !l.includes('mozilla') && !l.includes('modelcontextprotocol')
            ? l
            : undefined;
        });
        await pickRow(vs, 'microsoft', false);
        await waitForQuickInput(vs, /: repo( \(2\/2\))?$/);
        // The server offers repositories only for the owner it is told about: these are microsoft's.
        const repos = await poll("microsoft's repositories", WAIT, async () => {
          const l = await rowLabels(vs);
          return l.includes('playwright') && l.includes('vscode') ? l : undefined;
        });
        for (const r of ['vscode', 'typescript', 'playwright'])
          assert.ok(repos.includes(r), `${r} in ${repos.join(', ')}`);
        for (const r of ['typescript-sdk', 'servers', 'pdf.js'])
          assert.ok(!repos.includes(r), `${r} is not microsoft's`);
        await quickInput(vs).input.fill('p');
        await poll('repositories starting with "p"', WAIT, async () => {
          const l = await rowLabels(vs);
          return l.includes('playwright') && !l.includes('vscode') ? true : undefined;
        });
        await pickRow(vs, 'playwright', false);
        await poll('the resource document', WAIT, async () => {
          const inEditor = await vs.activeEditorText().catch(() => '');
          if (/repository microsoft\/playwright/.test(inEditor)) return true;
          return (await previewText(vs, 'repository microsoft/playwright', 1000).catch(() => undefined))
            ? true
            : undefined;
        });
      },
    );

    await step(
      "server-everything's template variable offers the server's completion (a positive integer id), and only that",
      async () => {
        await runCommandThenPick(vs, 'MCP Host: Read Resource…', /MCP Host: Read Resource/);
        await pickRow(vs, 'Dynamic Text Resource');
        await waitForQuickInput(vs, /: resourceId$/);
        const rows = quickInput(vs).widget.locator('.monaco-list-row:visible');
        // Its completer returns the typed id when it is a positive integer, nothing otherwise.
        await quickInput(vs).input.fill('x');
        await poll('only the typed text for "x"', WAIT, async () => {
          const texts = await rows.allInnerTexts();
          return texts.length === 1 && /^\s*x\s*\(as typed\)/.test(texts[0]!) ? true : undefined;
        });
        await quickInput(vs).input.fill('7');
        await poll("the server's own suggestion for 7", WAIT, async () => {
          const texts = await rows.allInnerTexts();
          return texts.length === 1 && /^\s*7\s*$/.test(texts[0]!) ? true : undefined;
        });
        await pickRow(vs, '7', false);
        await poll('the resource document', WAIT, async () => {
          const inEditor = await vs.activeEditorText().catch(() => '');
          if (/Resource 7: This is a plaintext resource/.test(inEditor)) return true;
          return (await previewText(vs, 'Resource 7: This is a plaintext resource', 1000).catch(() => undefined))
            ? true
            : undefined;
        });
      },
    );

    await step(
      'client credentials: Authenticate asks for the secret, connects with no browser; the secret is in no log, setting or file',
      async () => {
        const tabsBefore = tabs.length;
        await vs.inlineAction(/m2m.*needs authentication/, 'Authenticate');
        await waitForQuickInput(vs, /Client credentials for m2m/);
        assert.equal(
          await quickInput(vs).input.getAttribute('type'),
          'password',
          'the secret is typed into a password box',
        );
        await quickInput(vs).input.fill(M2M_BASIC.clientSecret);
        await quickInput(vs).input.press('Enter');
        assert.match(await rowText(vs, /m2m.*1 tool/, WAIT), /1 tool/);
        await vs.waitForLogFile('MCP Host', /m2m: signed in/, WAIT);
        assert.equal(tabs.length, tabsBefore, 'no browser tab was opened');
        assert.ok(tokens.length >= 1, 'the authorization server issued a token');
        assert.ok(
          fx.mcpRequests.some((r) => r.authorized),
          'the MCP server saw a valid token',
        );
        const files = [
          ...filesUnder(join(vs.userDataDir, 'logs')),
          ...filesUnder(join(vs.userDataDir, 'User')).filter((f) => f.endsWith('.json')),
          ...filesUnder(vs.workspaceDir),
          ...filesUnder(configDir),
        ];
        assert.ok(
          files.some((f) => f.endsWith(join('User', 'settings.json'))),
          'the user settings were searched',
        );
        assert.ok(
          files.some((f) => /MCP Host\.log$/.test(f)),
          'the host log was searched',
        );
        const hits: string[] = [];
        for (const f of files) {
          const content = readFileSync(f, 'latin1');
          if (content.includes(M2M_BASIC.clientSecret)) hits.push(`secret in ${f}`);
          for (const tok of tokens) if (content.includes(tok)) hits.push(`token in ${f}`);
        }
        if (vs.logs().includes(M2M_BASIC.clientSecret)) hits.push("secret in code-server's output");
        assert.deepEqual(hits, []);
      },
    );

    await step('client credentials: after a reload m2m connects from SecretStorage without asking', async () => {
      const authorizedBefore = fx.mcpRequests.filter((r) => r.authorized).length;
      await vs.reload();
      const asked = watchFor(quickInput(vs).widget);
      await vs.focusMcpHostView();
      // Connected and listed (not the cached list): the reconnect, and any question it needed, are over.
      assert.match(await liveRowText(vs, 'm2m', /1 tool/, WAIT), /1 tool/);
      assert.ok(
        fx.mcpRequests.filter((r) => r.authorized).length > authorizedBefore,
        'the reconnect carried a valid token',
      );
      assert.equal(await asked.stop(), undefined, 'the secret was not asked again');
      assert.doesNotMatch(vs.readLogFile('MCP Host') ?? '', new RegExp(M2M_BASIC.clientSecret));
    });

    await step(
      "server-everything: the editor shows the CLI's tools plus exactly those it gates on the sampling capability",
      async () => {
        // What server-everything itself says: the tools whose registration checks `clientCapabilities.sampling`.
        const toolsDir = join(EVERYTHING, '..', 'tools');
        const gated = readdirSync(toolsDir)
          .filter((f) => f.endsWith('.js'))
          .map((f) => readFileSync(join(toolsDir, f), 'utf8'))
          .filter((src) => /clientCapabilities\.sampling\s*!==\s*undefined/.test(src))
          .map((src) => /const name = "([^"]+)"/.exec(src)?.[1])
          .filter((n): n is string => n !== undefined)
          .sort();
        assert.ok(gated.length > 0, 'server-everything gates some tools on sampling');

        const label = await rowText(vs, /everything.*\d+ tools/, WAIT);
        const count = Number(/(\d+) tools/.exec(label)![1]);
        // The tree renders only the rows that fit: a tall window fits every tool of the server.
        const viewport = vs.page.viewportSize();
        await vs.page.setViewportSize({ width: viewport?.width ?? 1400, height: 2000 });
        await vs.expandTreeItem(/everything.*\d+ tools/);
        await vs.waitForTreeItem(/^\s*echo/);
        const editor = await poll('every tool row of everything', WAIT, async () => {
          const names = await vs.serversView().locator('.monaco-list-row[aria-level="3"] .label-name').allInnerTexts();
          const uniq = [...new Set(names.map((n) => n.trim()))];
          return uniq.length === count ? uniq.sort() : undefined;
        });
        if (viewport) await vs.page.setViewportSize(viewport);

        const cliHome = mkdtempSync(join(tmpdir(), 'mcp-host-client-features-cli-'));
        const out = execFileSync(
          process.execPath,
          [join(repoRoot, 'dist', 'cli.js'), 'tools', 'everything', '--json', '--workspace', vs.workspaceDir],
          {
            env: {
              ...process.env,
              ...env,
              HOME: cliHome,
              MCP_HOST_HOME: join(cliHome, '.mcp-host'),
              XDG_CONFIG_HOME: join(cliHome, '.config'),
              XDG_CACHE_HOME: join(cliHome, '.cache'),
            },
            encoding: 'utf8',
            timeout: 120_000,
          },
        );
        const cli = (JSON.parse(out) as { server: string; name: string }[])
          .filter((x) => x.server === 'everything')
          .map((x) => x.name)
          .sort();
        t.diagnostic(`editor ${editor.length} tools, CLI ${cli.length}; gated on sampling: ${gated.join(', ')}`);
        assert.deepEqual(
          cli.filter((n) => !editor.includes(n)),
          [],
          'the CLI shows nothing the editor does not',
        );
        assert.deepEqual(
          editor.filter((n) => !cli.includes(n)),
          gated,
        );
      },
    );
  },
);
