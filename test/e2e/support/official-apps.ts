// The official MCP Apps example servers in a session (test/e2e/official-apps*.e2e.test.ts): the
// workspace with its PDF, and the palette moves that open an app.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { fixturesDir, poll, repoRoot, type VSCode } from '../harness.js';
import { WAIT, answerDialog, pickRow, quickInput, waitForQuickInput } from './quick-input.js';

export const APPS = join(repoRoot, 'node_modules', '@modelcontextprotocol');
export const PAGE_TEXT = 'MCP Host e2e page one';

/** A one-page PDF with one line of Helvetica text: the smallest file pdf.js renders as a real page. */
export function tinyPdf(text: string): string {
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

/**
 * The fixture workspace copied to a temp folder whose name carries a per-run marker (so the PDF
 * server, whose argument is the file in it, is found by it too), with a one-page `doc.pdf`.
 * `env` is what code-server needs for the fixture's `.mcp.json`.
 */
export function officialAppsWorkspace(): { ws: string; mark: string; env: Record<string, string>; remove(): void } {
  const mark = `mcp-host-official-apps-${randomBytes(4).toString('hex')}`;
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-host-official-apps-'));
  const ws = join(tmp, mark);
  cpSync(join(fixturesDir, 'official-apps'), ws, { recursive: true });
  writeFileSync(join(ws, 'doc.pdf'), tinyPdf(PAGE_TEXT), 'latin1');
  return {
    ws,
    mark,
    env: { MCP_HOST_E2E_NODE: process.execPath, MCP_HOST_E2E_APPS: APPS, MCP_HOST_E2E_MARK: mark },
    remove: () => rmSync(tmp, { recursive: true, force: true }),
  };
}

/** The frame (an app's srcdoc frame inside its webview) that holds `selector`. */
export function frameWith(vs: VSCode, selector: string): Promise<Frame> {
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
export async function callTool(vs: VSCode, tool: string, answer: () => Promise<void> = async () => {}): Promise<void> {
  await vs.runCommand('MCP Host: Call Tool…');
  await waitForQuickInput(vs, /MCP Host: Call Tool/);
  await pickRow(vs, tool);
  await answerDialog(vs, new RegExp(`Run "${tool}" on \\w+\\?`), 'Run Tool');
  await answer();
}

export async function answerText(vs: VSCode, title: RegExp, value: string): Promise<void> {
  await waitForQuickInput(vs, title);
  await quickInput(vs).input.fill(value);
  await quickInput(vs).input.press('Enter');
}

/** Allows the workspace's three servers and waits until each shows its tools. */
export async function connectThree(vs: VSCode): Promise<void> {
  await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
  await answerDialog(vs, /Allow 3 MCP servers defined by this workspace/, 'Allow');
  await vs.focusMcpHostView();
  for (const name of ['pdf', 'basic', 'budget']) await vs.waitForTreeItem(new RegExp(`${name}.*\\d+ tools?`), WAIT);
}

/**
 * display_pdf on the workspace's doc.pdf, then waits for the viewer to show page 1's text (trusting
 * the app once when it asks for its chunked reads). Returns the viewer's frame.
 */
export async function openPdf(vs: VSCode): Promise<Frame> {
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
  await poll('page 1 of the PDF in the viewer', WAIT, async () => {
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
  return f;
}
