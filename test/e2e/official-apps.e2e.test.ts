// The official MCP Apps example servers from npm, which nobody here wrote (ext-apps 2.0.x: the
// basic vanilla-JS app, the budget allocator, the PDF viewer), in real VS Code (code-server): each
// app opens from a tool call and renders. The PDF viewer shows page 1 of a PDF in the workspace (made
// by the test: no download), drawn by pdf.js on its canvas with its text layer, which needs the
// worker the app CSP allows (issue 42 item 7) and the app's own chunked reads, trusted once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killMarked, pidsWith, poll, startVSCode, stepRunner } from './harness.js';
import { WAIT, answerDialog } from './support/quick-input.js';
import {
  PAGE_TEXT,
  callTool,
  connectThree,
  frameWith,
  officialAppsWorkspace,
  openPdf,
} from './support/official-apps.js';

test(
  'the official MCP Apps render: basic, budget allocator, and the PDF viewer showing a page',
  { timeout: 900_000 },
  async (t) => {
    const w = officialAppsWorkspace();
    const vs = await startVSCode({ workspace: w.ws, name: 'official-apps', env: w.env });
    t.after(async () => {
      await vs.dispose();
      killMarked(w.mark);
      w.remove();
    });
    const step = stepRunner(t, vs);

    await step('the three servers connect once allowed', async () => {
      await connectThree(vs);
    });

    await step(
      'the basic app opens from get-time, shows the server time, and its button calls back through the host',
      async () => {
        await callTool(vs, 'get-time');
        const f = await frameWith(vs, '#get-time-btn');
        const time = await poll('the server time in the basic app', WAIT, async () => {
          const text = (
            await f
              .locator('#server-time')
              .innerText({ timeout: 2000 })
              .catch(() => '')
          ).trim();
          return /\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}/.test(text) ? text : undefined;
        });
        // Its button calls get-time again through the host, which asks first (the tool is not read-only).
        await f.locator('#get-time-btn').click();
        await answerDialog(vs, /Run "get-time" on basic\?/, 'Run Tool');
        await poll('a new server time after the button', WAIT, async () => {
          const text = (
            await f
              .locator('#server-time')
              .innerText({ timeout: 2000 })
              .catch(() => '')
          ).trim();
          return text !== time && /\d{1,2}:\d{2}/.test(text) ? text : undefined;
        });
        await vs.screenshot('basic-app');
      },
    );

    await step('the budget allocator opens from get-budget-data and draws its sliders and chart', async () => {
      await callTool(vs, 'get-budget-data');
      const f = await frameWith(vs, '#budget-chart');
      const sliders = await poll('the budget sliders', WAIT, async () => {
        const n = await f
          .locator('#sliders-container input[type="range"]')
          .count()
          .catch(() => 0);
        return n > 0 ? n : undefined;
      });
      assert.ok(sliders >= 2, `${sliders} category sliders`);
      const chart = await f.locator('#budget-chart').evaluate((c) => {
        const canvas = c as HTMLCanvasElement;
        return { w: canvas.width, h: canvas.height };
      });
      assert.ok(chart.w > 0 && chart.h > 0, `the chart canvas is ${chart.w}×${chart.h}`);
      await vs.screenshot('budget-app');
    });

    await step('the PDF viewer opens from display_pdf and renders page 1 of the workspace PDF', async () => {
      const f = await openPdf(vs);
      const text = await f.locator('#text-layer').innerText();
      assert.match(text, new RegExp(PAGE_TEXT));
      assert.equal((await f.locator('#total-pages').innerText()).replace(/\D/g, ''), '1');
      // pdf.js drew the page: the canvas has dark pixels (the line of text) on the white page.
      const drawn = await f.locator('#pdf-canvas').evaluate((c) => {
        const canvas = c as HTMLCanvasElement;
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0 || canvas.height === 0) return { w: canvas.width, h: canvas.height, dark: 0 };
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i]! < 128 && px[i + 3]! > 0) dark++;
        return { w: canvas.width, h: canvas.height, dark };
      });
      assert.ok(drawn.w > 100 && drawn.h > 100, `canvas ${drawn.w}×${drawn.h}`);
      assert.ok(drawn.dark > 50, `${drawn.dark} dark pixels drawn on the page`);
      assert.ok(!vs.logs().includes('Setting up fake worker failed'), 'pdf.js ran its worker');
      await vs.screenshot('pdf-app');
      assert.ok(pidsWith(w.mark).length >= 3, 'the three servers run with the run marker');
    });
  },
);
