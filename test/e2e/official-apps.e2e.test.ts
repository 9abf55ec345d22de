// The official MCP Apps example servers from npm, which nobody here wrote (ext-apps 2.0.x: the
// basic vanilla-JS app, the budget allocator, the PDF viewer), in real VS Code (code-server): each
// app opens from a tool call and renders. The PDF viewer shows page 1 of a PDF in the workspace (made
// by the test: no download), drawn by pdf.js on its canvas with its text layer, which needs the
// worker the app CSP allows (issue 42 item 7) and the app's own chunked reads, trusted once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { fixturesDir, killMarked, pidsWith, poll, repoRoot, startVSCode, stepRunner, type VSCode } from './harness.js';
import { WAIT, answerDialog, pickRow, quickInput, waitForQuickInput } from './support/quick-input.js';

const APPS = join(repoRoot, 'node_modules', '@modelcontextprotocol');
const PAGE_TEXT = 'MCP Host e2e page one';

/** A one-page PDF with one line of Helvetica text: the smallest file pdf.js renders as a real page. */
function tinyPdf(text: string): string {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  return `${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

/** The frame (an app's srcdoc frame inside its webview) that holds `selector`. */
function frameWith(vs: VSCode, selector: string): Promise<Frame> {
  return poll(`the app frame with ${selector}`, WAIT, async () => {
    for (const f of vs.page.frames()) {
      if (
        (await f
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      )
        return f;
    }
    return undefined;
  });
}

/**
 * Call Tool… on `tool`; its arguments are answered by `answer` (none by default). None of these
 * tools is marked read-only, so the palette asks first, before the arguments.
 */
async function callTool(vs: VSCode, tool: string, answer: () => Promise<void> = async () => {}): Promise<void> {
  await vs.runCommand('MCP Host: Call Tool…');
  await waitForQuickInput(vs, /MCP Host: Call Tool/);
  await pickRow(vs, tool);
  await answerDialog(vs, new RegExp(`Run "${tool}" on \\w+\\?`), 'Run Tool');
  await answer();
}

async function answerText(vs: VSCode, title: RegExp, value: string): Promise<void> {
  await waitForQuickInput(vs, title);
  await quickInput(vs).input.fill(value);
  await quickInput(vs).input.press('Enter');
}

test(
  'the official MCP Apps render: basic, budget allocator, and the PDF viewer showing a page',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-official-apps-${randomBytes(4).toString('hex')}`;
    // The folder's name carries the marker, so the PDF server (whose argument is the file in it) is found by it too.
    const tmp = mkdtempSync(join(tmpdir(), 'mcp-host-official-apps-'));
    const ws = join(tmp, mark);
    cpSync(join(fixturesDir, 'official-apps'), ws, { recursive: true });
    writeFileSync(join(ws, 'doc.pdf'), tinyPdf(PAGE_TEXT), 'latin1');
    const vs = await startVSCode({
      workspace: ws,
      name: 'official-apps',
      env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_APPS: APPS, MCP_HOST_E2E_MARK: mark },
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
      rmSync(tmp, { recursive: true, force: true });
    });
    const step = stepRunner(t, vs);

    await step('the three servers connect once allowed', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      await answerDialog(vs, /Allow 3 MCP servers defined by this workspace/, 'Allow');
      await vs.focusMcpHostView();
      for (const name of ['pdf', 'basic', 'budget']) await vs.waitForTreeItem(new RegExp(`${name}.*\\d+ tools?`), WAIT);
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
      const file = join(vs.workspaceDir, 'doc.pdf');
      await callTool(vs, 'display_pdf', async () => {
        await answerText(vs, /pdf \/ display_pdf: url/, file);
        await answerText(vs, /pdf \/ display_pdf: page/, '1');
        await waitForQuickInput(vs, /pdf \/ display_pdf: elicit_form_inputs/);
        await pickRow(vs, 'false', false);
      });
      const f = await frameWith(vs, '#pdf-canvas');
      // The viewer reads the file through its app-only tools (no hints): the first asks, with the
      // choice to trust the app for the rest of its session; after that it reads without asking.
      const text = await poll('page 1 of the PDF in the viewer', WAIT, async () => {
        const dialog = vs.page.locator('.monaco-dialog-box');
        if (await dialog.isVisible().catch(() => false)) {
          await answerDialog(vs, /on pdf\?[\s\S]*trusting the app/, 'Trust App Until Closed');
          return undefined;
        }
        const t = await f
          .locator('#text-layer')
          .innerText({ timeout: 2000 })
          .catch(() => '');
        return t.includes(PAGE_TEXT) ? t : undefined;
      });
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
      assert.ok(pidsWith(mark).length >= 3, 'the three servers run with the run marker');
    });
  },
);
