// Every client feature on both protocol eras in real VS Code (code-server): one fixture on SDK v2
// (test/fixtures/servers/eras-server.mjs) as a modern-only Streamable HTTP server (`legacy:
// 'reject'`), one in the SDK's default posture (`legacy: 'stateless'`), a stdio one that serves
// both eras, and a stdio one on 2025-11-25 only. For each: it connects and Server Details shows its
// protocol version; a palette call; a form elicitation answered in the editor; a URL elicitation;
// sampling with consent and the user's own reply; the workspace folder as its root; its log
// messages at the level the user chose; an open resource document following the server's update;
// the tree refreshed on `list_changed`; a task-augmented call in the Running Tasks view.
//
// Each (feature, server) is a step of its own: a feature that fails on one era fails only there.
// MCP_HOST_E2E_STEP_WAIT_MS shortens the waits when proving that steps fail on a broken build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPortServer, type RunningServer } from '../integration/connection/helpers.js';
import { killMarked, poll, repoRoot, startVSCode, type VSCode } from './harness.js';
import {
  agreeToOpen,
  answerDialog,
  answerInput,
  escapeRegExp,
  previewText,
  quickInput,
  runCommandThenPick,
  writeSamplingReply,
} from './support/quick-input.js';
import { rowText, serverLog } from './support/views.js';
import { HOVER, MCP_HOST_CONTAINER, treeRow, viewPane } from './support/workbench.js';

const WAIT = Number(process.env.MCP_HOST_E2E_STEP_WAIT_MS) || 120_000;
const FIXTURE = join(repoRoot, 'test', 'fixtures', 'servers', 'eras-server.mjs');
const TOOLS = 9;

interface Era {
  server: string;
  protocol: '2026-07-28' | '2025-11-25';
}
const SERVERS: Era[] = [
  { server: 'modern-http', protocol: '2026-07-28' },
  { server: 'default-http', protocol: '2026-07-28' },
  { server: 'modern-stdio', protocol: '2026-07-28' },
  { server: 'legacy-stdio', protocol: '2025-11-25' },
];

/** Clicks the row of the open pick list labelled `label` whose description starts with `server`. */
async function pickOf(vs: VSCode, label: string, server: string): Promise<void> {
  const q = quickInput(vs);
  await q.input.fill(label);
  const row = q.widget
    .locator('.monaco-list-row')
    .filter({ has: vs.page.locator('.label-name').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
    .filter({
      has: vs.page.locator('.label-description').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(server)}\\b`) }),
    });
  await row.first().waitFor({ state: 'visible', timeout: WAIT });
  await row.first().click();
}

/** Calls `tool` of `server` from the palette (Call Tool…). */
async function callTool(vs: VSCode, server: string, tool: string): Promise<void> {
  await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
  await pickOf(vs, tool, server);
}

test('both protocol eras in the editor: every client feature on each', { timeout: 1_500_000 }, async (t) => {
  const mark = `mcp-host-eras-e2e-${randomBytes(4).toString('hex')}`;
  const http: RunningServer[] = [];
  // long-job runs until the test creates <finishDir>/<server> (eras-server.mjs --finish-when).
  const finishDir = mkdtempSync(join(tmpdir(), 'mcp-host-eras-e2e-'));
  t.after(() => rmSync(finishDir, { recursive: true, force: true }));
  t.after(() => Promise.all(http.map((s) => s.stop())));
  // An interrupted run exits from the harness's signal hook, past t.after: the servers go with it.
  const killHttp = (): void => http.forEach((s) => s.proc.kill('SIGKILL'));
  process.once('exit', killHttp);
  t.after(() => process.off('exit', killHttp));
  for (const legacy of ['reject', 'stateless'])
    http.push(
      await startPortServer(
        'eras-server.mjs',
        [
          ...['--http', '--legacy', legacy, '--name', legacy === 'reject' ? 'modern-http' : 'default-http'],
          ...['--finish-when', join(finishDir, legacy === 'reject' ? 'modern-http' : 'default-http')],
        ],
        '/mcp',
      ),
    );
  const vs = await startVSCode({
    workspace: 'eras',
    name: 'eras',
    // Warning and above: debug and info messages of the servers must not reach their channels.
    settings: { 'mcpHost.logging.level': 'warning' },
    env: {
      MCP_HOST_E2E_NODE: process.execPath,
      MCP_HOST_E2E_ERAS: FIXTURE,
      MCP_HOST_E2E_MARK: mark,
      MCP_HOST_E2E_FINISH: finishDir,
      MCP_HOST_E2E_MODERN_URL: http[0]!.url,
      MCP_HOST_E2E_DEFAULT_URL: http[1]!.url,
    },
  });
  t.after(async () => {
    await vs.dispose();
    killMarked(mark);
  });
  const hostLog = (): string => vs.readLogFile('MCP Host') ?? '';
  /** A step of its own (no skipping after a failure); a failure leaves a screenshot and the logs. */
  const step = (name: string, fn: () => Promise<void>): Promise<void> =>
    t.test(name, async () => {
      try {
        await fn();
      } catch (e) {
        await vs.screenshot(`failed-${name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
        t.diagnostic(`MCP Host (end):\n${hostLog().split('\n').slice(-30).join('\n')}`);
        // Leave nothing open that would take the next step's keys.
        await vs.page.keyboard.press('Escape').catch(() => undefined);
        throw e;
      }
    });

  await step('the workspace servers are approved and all four connect', async () => {
    await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
    await answerDialog(vs, /Allow 4 MCP servers|Allow the MCP servers/, 'Allow');
    await vs.focusMcpHostView();
    for (const { server } of SERVERS) await vs.waitForTreeItem(new RegExp(`${server}.*${TOOLS} tools`), WAIT);
  });

  for (const { server, protocol } of SERVERS) {
    await step(`${server}: its tree tooltip and Server Details show MCP ${protocol}`, async () => {
      const row = await vs.waitForTreeItem(new RegExp(`${server}.*tools`), WAIT);
      await row.hover();
      // This row's card, not any card: the previous row's may still be closing, and the corner the
      // mouse could be parked in has a hover of its own that stays while the mouse rests there.
      const card = vs.page
        .locator(HOVER)
        .filter({ hasText: server })
        .filter({ hasText: /Protocol: MCP/ });
      const tip = await poll(`the tooltip of ${server}`, WAIT, async () => {
        for (const shown of await card.allInnerTexts()) if (shown.includes(server)) return shown;
        return undefined;
      });
      assert.match(tip, new RegExp(`Protocol: MCP ${escapeRegExp(protocol)}`));
      // Hovers close on a key press; the mouse stays where it is, so no other hover opens.
      await vs.page.keyboard.press('Escape');
      await card.first().waitFor({ state: 'hidden', timeout: WAIT });
      await runCommandThenPick(vs, 'MCP Host: Show Server Details', /Show Server Details/);
      await quickInput(vs).input.fill(server);
      await quickInput(vs).input.press('Enter');
      const text = await poll(`the details of ${server}`, WAIT, async () => {
        const shown = await vs.activeEditorText().catch(() => '');
        return shown.includes(`# ${server}`) && /Protocol version/.test(shown) ? shown : undefined;
      });
      assert.match(text, new RegExp(`\\*\\*Protocol version:\\*\\* ${escapeRegExp(protocol)}`));
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: a palette call with an argument`, async () => {
      await callTool(vs, server, 'echo');
      await answerInput(vs, new RegExp(`${server} / echo: text`), `hello ${server}`);
      await previewText(vs, `[${server}] echo: hello ${server}`, WAIT);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: a form elicitation answered in the editor reaches the server`, async () => {
      await callTool(vs, server, 'confirm');
      await answerDialog(vs, new RegExp(`${server} asks for input[\\s\\S]*Your name\\?`), 'Accept');
      await answerInput(vs, new RegExp(`${server} asks: Name`), `Ada ${server}`);
      await previewText(vs, `[${server}] elicitation accept {"name":"Ada ${server}"}`, WAIT);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: a URL elicitation opens the page after the user agrees`, async () => {
      await callTool(vs, server, 'open-link');
      await agreeToOpen(vs, server, /consent\.example\.com/, /consent\.example\.com\/eras/);
      await previewText(vs, `[${server}] url elicitation accept`, WAIT);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: sampling asks first, and the server gets the user's own reply`, async () => {
      await callTool(vs, server, 'ask-model');
      const asked = await answerDialog(
        vs,
        new RegExp(`${server} wants to send this to a language model`),
        'Allow once',
      );
      assert.match(asked, /Say hi/);
      // code-server has no language model: the user writes the reply.
      await answerDialog(vs, /no language model is available/, 'Write the reply');
      await writeSamplingReply(vs, [/Say hi/], `hi from ${server}`);
      await previewText(vs, `[${server}] model said hi from ${server}`, WAIT);
    });
  }

  const folder = pathToFileURL(vs.workspaceDir).href;
  for (const { server } of SERVERS) {
    await step(`${server}: the workspace folder reaches the server as its root`, async () => {
      await callTool(vs, server, 'roots');
      const text = await previewText(vs, `[${server}] roots`, WAIT);
      assert.ok(text.includes(folder), `${folder} in ${text}`);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: log messages at the chosen level (warning) and above only`, async () => {
      await callTool(vs, server, 'log');
      await previewText(vs, `[${server}] logged`, WAIT);
      const shown = await serverLog(vs, server, /eras log error/, WAIT);
      assert.match(shown, /eras log warning/);
      assert.doesNotMatch(shown, /eras log (debug|info)/);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: an open resource document follows the server's update`, async () => {
      await runCommandThenPick(vs, 'MCP Host: Read Resource…', /MCP Host: Read Resource/);
      await pickOf(vs, 'counter', server);
      // The counter goes up by itself every 1.5 s once read (eras-server.mjs): the open preview follows it.
      const first = await previewText(vs, new RegExp(`\\[${escapeRegExp(server)}\\] count \\d+`), WAIT);
      const n = Number(new RegExp(`\\[${escapeRegExp(server)}\\] count (\\d+)`).exec(first)![1]);
      const following = new RegExp(`following eras://counter from ${escapeRegExp(server)} \\(`);
      await vs.waitForLogFile('MCP Host', following, WAIT);
      await vs.waitForLogFile(
        'MCP Host',
        new RegExp(`eras://counter from ${escapeRegExp(server)} changed; re-read`),
        WAIT,
      );
      await previewText(vs, new RegExp(`\\[${escapeRegExp(server)}\\] count (?!${n}\\b)\\d+`), WAIT);
    });
  }

  for (const { server } of SERVERS) {
    await step(`${server}: list_changed refreshes the tree`, async () => {
      await callTool(vs, server, 'add-tool');
      await previewText(vs, `[${server}] extra added`, WAIT);
      await vs.focusMcpHostView();
      assert.match(await rowText(vs, new RegExp(`${server}.*${TOOLS + 1} tools`), WAIT), /tools/);
    });
  }

  const tasksPane = () => viewPane(vs.page, MCP_HOST_CONTAINER, 'Running Tasks');
  for (const { server } of SERVERS) {
    await step(`${server}: a task-augmented call shows in Running Tasks and ends with its result`, async () => {
      await vs.focusMcpHostView();
      await callTool(vs, server, 'long-job');
      const row = treeRow(tasksPane(), new RegExp(`${server} / long-job`)).first();
      await row.waitFor({ state: 'visible', timeout: WAIT });
      // Its status follows the server's steps while it runs, then the test lets it finish.
      const first = await row.innerText();
      assert.match(first, /working · step \d+/);
      await poll('the task status to move on', WAIT, async () => {
        const now = await row.innerText().catch(() => '');
        return /working · step \d+/.test(now) && now !== first ? true : undefined;
      });
      writeFileSync(join(finishDir, server), '');
      await previewText(vs, new RegExp(`\\[${escapeRegExp(server)}\\] long-job done after \\d+ steps`), WAIT);
      await row.waitFor({ state: 'hidden', timeout: WAIT });
      assert.doesNotMatch(hostLog(), new RegExp(`${escapeRegExp(server)}/long-job failed`));
    });
  }
});
