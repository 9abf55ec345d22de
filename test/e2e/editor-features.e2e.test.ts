// The protocol features' editor faces in real VS Code (code-server) against server-everything:
// server log messages in the server's output channel, sampling consent, the user's own reply
// (no model in code-server) or else a clear error back to the server, a task's status and Cancel in the call notification,
// completions as you type in the prompt argument pick, a resource document following its
// subscription, and the server details document with the instructions whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EVERYTHING, killMarked, poll, startVSCode } from './harness.js';
import {
  WAIT,
  answerDialog,
  answerInput,
  callResearchQuery,
  pickRow,
  previewText,
  quickInput,
  rowLabels,
  runCommandThenPick,
  waitForQuickInput,
  writeSamplingReply,
} from './support/quick-input.js';

test(
  'protocol features in the editor: logging, sampling consent, completions, server details',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-features-e2e-${randomBytes(4).toString('hex')}`;
    const vs = await startVSCode({
      workspace: 'features',
      name: 'editor-features',
      settings: { 'mcpHost.logging.level': 'debug' },
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_EVERYTHING: EVERYTHING, MCP_HOST_E2E_MARK: mark },
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });

    await t.test('the project server is approved and connects', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await answerDialog(vs, /Allow the MCP server .*defined by this workspace|Allow 1 MCP server/, 'Allow');
      await vs.focusMcpHostView();
      // With sampling, roots, elicitation and tasks declared, server-everything offers all 19 tools.
      await vs.waitForTreeItem(/everything.*19 tools/, WAIT);
    });

    await t.test("server log messages land in the server's output channel at their level", async () => {
      await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
      await pickRow(vs, 'toggle-simulated-logging');
      await vs.waitForLogFile('MCP Host', /everything\/toggle-simulated-logging (done|returned an error|failed)/, WAIT);
      // Its result opens in a preview, which takes the focus: let it open before the next step's picks.
      await previewText(vs, /Started simulated, random-leveled logging/);
      // The server's messages (one at once, then every 5 s) in its channel's log (file name without the colon).
      const shown = await vs.waitForLogFile('MCP Host everything', /\w+[- ]level[- ]message/i, WAIT);
      assert.match(shown, /\[(info|warning|error)\] ((notice|critical|alert|emergency): )?\w+[- ]level[- ]message/i);
    });

    const callSampling = async (prompt: string): Promise<void> => {
      await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
      await pickRow(vs, 'trigger-sampling-request');
      await answerInput(vs, /trigger-sampling-request: prompt/, prompt);
      await waitForQuickInput(vs, /trigger-sampling-request: maxTokens/);
      await quickInput(vs).input.press('Enter');
    };
    const writeReply = (expect: RegExp[], reply: string): Promise<void> => writeSamplingReply(vs, expect, reply);

    await t.test(
      'sampling asks first; with no language model the user may write the reply, and dismissing that gives the server a clear error',
      async () => {
        await callSampling('say hi');
        const asked = await answerDialog(vs, /everything wants to send this to a language model/, 'Allow once');
        assert.match(asked, /say hi/);
        assert.match(asked, /up to 100 tokens/);
        assert.match(asked, /Write the reply myself/);
        // code-server has no language model: the user is offered to write the reply; Cancel sends the error.
        const offer = await answerDialog(
          vs,
          /everything asked for a language model reply, but no language model is available/,
          'Cancel',
        );
        assert.match(offer, /write the reply yourself/);
        const text = await previewText(vs, /No language model is available/);
        assert.match(text, /trigger-sampling-request/);
      },
    );

    await t.test(
      '"Write the reply myself": the editor shows the request and the server receives the written text',
      async () => {
        await callSampling('name a colour');
        await answerDialog(vs, /everything wants to send this to a language model/, 'Write the reply myself');
        await writeReply(
          [/\/\/ +user: Resource trigger-sampling-request context: name a colour/, /\(up to 100 tokens\)/],
          'Teal, written by hand',
        );
        const text = await previewText(vs, /Teal, written by hand/);
        assert.match(text, /LLM sampling result/);
        assert.match(text, /"model": "user"/);
      },
    );

    await t.test(
      '"Always for this server" stops the asking; with no model the offer to write still comes; Revoke Sampling Consent brings the asking back',
      async () => {
        const finished = () =>
          (vs.readLogFile('MCP Host') ?? '')
            .split('\n')
            .filter((l) => /everything\/trigger-sampling-request (returned an error|done|failed)/.test(l)).length;
        const before = finished();
        await callSampling('again');
        await answerDialog(vs, /everything wants to send this to a language model/, 'Always for this server');
        await answerDialog(vs, /no language model is available/, 'Write the reply');
        await writeReply([/again/], 'Written after Always');
        await previewText(vs, /Written after Always/);
        await poll('the second sampling call to finish', WAIT, async () => (finished() > before ? true : undefined));
        await callSampling('again');
        // No consent dialog once always allowed: the first dialog is the offer to write the reply.
        const offer = await answerDialog(vs, /asked for a language model reply/, 'Cancel');
        assert.doesNotMatch(offer, /wants to send this/);
        await poll('the third call to finish', WAIT, async () => (finished() > before + 1 ? true : undefined));
        await runCommandThenPick(vs, 'MCP Host: Revoke Sampling Consent', /Revoke Sampling Consent/);
        await pickRow(vs, 'everything', false);
        await vs.waitForNotification(/everything will ask again before its next sampling request/);
        await callSampling('again');
        await answerDialog(vs, /everything wants to send this to a language model/, 'Deny');
        await poll('the denied call to finish', WAIT, async () => (finished() > before + 2 ? true : undefined));
        await previewText(vs, /declined the sampling request from everything/);
      },
    );

    await t.test('a task tool shows its status in the call notification; Cancel sends tasks/cancel', async () => {
      await callResearchQuery(vs, 'tides');
      const toast = vs.page.locator('.notification-toast').filter({ hasText: /simulate-research-query/ });
      const status = await poll('the task status in the notification', WAIT, async () => {
        const text =
          (await toast
            .first()
            .innerText()
            .catch(() => '')) ?? '';
        return /task working/.test(text) ? text : undefined;
      });
      assert.match(
        status,
        /task working: (Gathering sources|Analyzing content|Synthesizing findings|Generating report)/,
      );
      await toast.first().locator('.monaco-button', { hasText: 'Cancel' }).first().click();
      const log = await vs.waitForLogFile(
        'MCP Host everything',
        /task \w+ \(simulate-research-query\) cancelled/,
        WAIT,
      );
      assert.match(log, /tool simulate-research-query runs as task \w+/);
      await vs.waitForLogFile('MCP Host', /everything\/simulate-research-query cancelled by the user/, WAIT);
    });

    await t.test(
      "prompt arguments offer the server's completions as you type, narrowed by earlier answers",
      async () => {
        await runCommandThenPick(vs, 'MCP Host: Get Prompt…', /MCP Host: Get Prompt/);
        await pickRow(vs, 'Team Management');
        await waitForQuickInput(vs, /completable-prompt: department/);
        await quickInput(vs).input.fill('S');
        await poll('completions for "S"', WAIT, async () => {
          const l = await rowLabels(vs);
          return l.includes('Sales') && l.includes('Support') && !l.includes('Engineering') ? true : undefined;
        });
        await pickRow(vs, 'Sales', false);
        await waitForQuickInput(vs, /completable-prompt: name/);
        const names = await poll('completions for the Sales team', WAIT, async () => {
          const l = await rowLabels(vs);
          return l.includes('Eve') ? l : undefined;
        });
        for (const n of ['David', 'Eve', 'Frank']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
        for (const n of ['Alice', 'Grace', 'John']) assert.ok(!names.includes(n), `${n} is not in the Sales team`);
        await pickRow(vs, 'Eve', false);
        await previewText(vs, /Eve/);
      },
    );

    await t.test('an open resource document subscribes and re-reads when the server says it changed', async () => {
      await runCommandThenPick(vs, 'MCP Host: Read Resource…', /MCP Host: Read Resource/);
      await pickRow(vs, 'features.md');
      await previewText(vs, 'demo://resource/static/document/features.md');
      await vs.waitForLogFile(
        'MCP Host',
        /following demo:\/\/resource\/static\/document\/features\.md from everything \(resources\/subscribe\)/,
        WAIT,
      );
      await runCommandThenPick(vs, 'MCP Host: Call Tool…', /MCP Host: Call Tool/);
      await pickRow(vs, 'toggle-subscriber-updates');
      // The server sends its first update before it answers the call, so the update can be logged
      // before the call's result opens in a preview; that preview takes the focus, and a quick pick
      // the next step opened in the meantime closes (Show Server Details then never saw its pick).
      await previewText(vs, /Started simulated resource updated notifications/);
      await vs.waitForLogFile(
        'MCP Host',
        /demo:\/\/resource\/static\/document\/features\.md from everything changed; re-read/,
        WAIT,
      );
    });

    await t.test('Show Server Details opens a document with the instructions whole', async () => {
      await runCommandThenPick(vs, 'MCP Host: Show Server Details', /Show Server Details/);
      await pickRow(vs, 'everything', false);
      const top = await poll('the details document', WAIT, async () => {
        const text = await vs.activeEditorText().catch(() => '');
        return /## Instructions/.test(text) ? text : undefined;
      });
      assert.match(top, /Everything Server – Server Instructions/);
      // The end of the instructions (past the tooltip's cut) is in the document too.
      await vs.page.keyboard.press('Control+End');
      const end = await poll('the end of the document', WAIT, async () => {
        const text = await vs.activeEditorText().catch(() => '');
        return /## Configuration/.test(text) ? text : undefined;
      });
      assert.match(end, /secrets hidden/);
      await vs.page.keyboard.press('Control+Home');
      // Typed only into the find box once it is open (keys typed before land in the read-only
      // document), and closed only once it has found the text, which it scrolls into view.
      await vs.page.keyboard.press('Control+F');
      const find = vs.page.locator('.part.editor .editor-widget.find-widget.visible');
      await find.locator('.find-part textarea').first().fill('properly passed server instructions');
      await poll('the find box to find the sentence', WAIT, async () =>
        /^1 of \d+/.test(
          (
            await find
              .locator('.matchesCount')
              .innerText()
              .catch(() => '')
          ).trim(),
        )
          ? true
          : undefined,
      );
      await vs.page.keyboard.press('Escape');
      const found = await poll('the last sentence of the instructions', WAIT, async () => {
        const text = await vs.activeEditorText().catch(() => '');
        return /properly passed server instructions/.test(text) ? text : undefined;
      });
      assert.match(found, /Easter Egg/);
    });
  },
);
