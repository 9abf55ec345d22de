/**
 * `Call Tool…`, `Re-run Last Tool Call` and `Tool Call History…`: pick a tool, collect its
 * arguments from its schema, confirm destructive tools, run under progress, show the result.
 */
import * as vscode from 'vscode';
import { isDestructive, visibleToModel } from '../../core/apps/index.js';
import type { HostTool } from '../../core/host-api.js';
import { showsLists } from '../tree/model.js';
import { validateToolArgs } from '../../core/capabilities/index.js';
import {
  type CallRecord,
  collectForm,
  planForm,
  renderFailure,
  renderToolResult,
  summariseArgs,
  urlElicitationsOf,
} from '../../core/calls/index.js';
import { blobsOfContents, errorText, renderOptions, type CallsContext } from './context.js';
import { vscodeFormUi } from './form-ui.js';
import { runWithProgress } from './run-request.js';
import { readTarget } from './targets.js';
import type { CommandTable } from '../command-table.js';

function liveTools(ctx: CallsContext, server?: string): HostTool[] {
  const tools = ctx.host
    .servers()
    // A connecting server's cached lists count: the call waits for the connection (and the live list).
    .filter((s) => showsLists(s) && (server === undefined || s.name === server))
    .flatMap((s) => s.tools)
    .filter(visibleToModel);
  return ctx.toolFilter ? ctx.toolFilter.filter(tools) : tools;
}

function findTool(ctx: CallsContext, server: string, tool: string): HostTool | undefined {
  const s = ctx.host.server(server);
  return s?.tools.find((t) => t.name === tool) ?? s?.tools.find((t) => t.qualifiedName === tool);
}

interface ToolItem extends vscode.QuickPickItem {
  tool: HostTool;
}

async function pickTool(ctx: CallsContext, server?: string): Promise<HostTool | undefined> {
  const tools = liveTools(ctx, server);
  if (tools.length === 0) {
    const where = server ? `${server} has no tools (or is not connected)` : 'No connected server offers tools';
    void vscode.window.showInformationMessage(`${where}. Check the MCP Host view for each server's state.`);
    return undefined;
  }
  const cached = new Set(
    ctx.host
      .servers()
      .filter((s) => s.cached)
      .map((s) => s.name),
  );
  const items: ToolItem[] = tools.map((t) => {
    const markers = [t.annotations.readOnlyHint === true ? '$(eye)' : '', isDestructive(t) ? '$(warning)' : '']
      .filter(Boolean)
      .join(' ');
    // A gateway's tool under its upstream server's own name (core/upstream-meta.ts), as the tree shows it.
    return {
      label: t.upstream ? t.upstream.tool : t.name,
      description: [
        t.upstream ? `${t.server} › ${t.upstream.server}` : t.server,
        cached.has(t.server) ? '(cached)' : '',
        markers,
      ]
        .filter(Boolean)
        .join(' '),
      detail: t.description ? t.description.split('\n')[0] : undefined,
      tool: t,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MCP Host: Call Tool',
    placeHolder: 'Pick a tool ($(eye) read-only, $(warning) may change data)',
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  return picked?.tool;
}

export async function confirmDestructive(t: HostTool): Promise<boolean> {
  if (!isDestructive(t)) return true;
  return (await askToRun(t, false)) !== 'declined';
}

const TRUST_APP = 'Trust App Until Closed';

/**
 * The confirmation for a tool that may change data. With `mayTrust` (an app's own tool without a
 * destructive hint, core/apps/call-consent.ts) it also offers to trust the app for its session.
 */
export async function askToRun(t: HostTool, mayTrust: boolean): Promise<'run' | 'trust' | 'declined'> {
  const declared = t.annotations.destructiveHint === true;
  const detail = declared
    ? 'The server marks this tool as destructive: it may change or delete data.'
    : 'The server does not mark this tool as read-only, so it may change or delete data.';
  const trustNote = mayTrust
    ? ' Only its app can call it; trusting the app runs its own tools without asking until the app closes (tools marked destructive still ask).'
    : '';
  const choice = await vscode.window.showWarningMessage(
    `Run "${t.name}" on ${t.server}?`,
    { modal: true, detail: detail + trustNote },
    ...(mayTrust ? ['Run Tool', TRUST_APP] : ['Run Tool']),
  );
  if (choice === TRUST_APP) return 'trust';
  return choice === 'Run Tool' ? 'run' : 'declined';
}

/** Collects arguments for a tool; undefined when the user cancelled. */
export async function collectToolArgs(
  t: HostTool,
  initial?: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  return collectForm(planForm(t.inputSchema), vscodeFormUi(), {
    title: `${t.server} / ${t.name}`,
    initial,
    validate: (args) => {
      const problems = validateToolArgs(t, args);
      return problems.length ? problems.join('; ') : undefined;
    },
  });
}

/** Runs a call with progress, records it, and opens the result. Returns the outcome kind. */
export async function runToolCall(
  ctx: CallsContext,
  server: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallRecord> {
  const rec = ctx.history.add(server, tool, args, Date.now());
  ctx.log.info(`calling ${server}/${tool}`);
  const outcome = await runWithProgress(`${server}: ${tool}`, (opts) => ctx.host.callTool(server, tool, args, opts));
  const elapsed = Date.now() - rec.at;
  switch (outcome.kind) {
    case 'cancelled':
      ctx.history.finish(rec, 'cancelled', elapsed);
      ctx.log.info(`${server}/${tool} cancelled by the user after ${elapsed} ms`);
      vscode.window.setStatusBarMessage(`MCP Host: ${tool} cancelled`, 5000);
      return rec;
    case 'failed': {
      ctx.history.finish(rec, 'failed', elapsed);
      const pages = urlElicitationsOf(outcome.error);
      if (pages && pages.length > 0) return openPagesThenRetry(ctx, rec, pages);
      const message = errorText(outcome.error);
      ctx.log.error(`${server}/${tool} failed: ${message}`);
      const uri = ctx.results.add(`${tool} failed`, renderFailure({ server, title: `${tool} failed`, message, args }));
      await ctx.results.show(uri);
      return rec;
    }
    case 'ok': {
      const r = outcome.value;
      ctx.history.finish(rec, r.isError ? 'error' : 'ok', r.durationMs);
      ctx.log.info(`${server}/${tool} ${r.isError ? 'returned an error' : 'done'} in ${Math.round(r.durationMs)} ms`);
      // A tool with an app shows its result in the app (MCP Apps); a failed call or an app that
      // cannot load falls back to the document.
      const t = findTool(ctx, server, tool);
      if (t?.ui?.resourceUri && !r.isError && ctx.apps && (await ctx.apps.open(t, args, r))) return rec;
      const md = renderToolResult({ server, tool, args, result: r }, await renderOptions(blobsOfContents(r.content)));
      await ctx.results.show(ctx.results.add(r.isError ? `${tool} error` : tool, md));
      return rec;
    }
  }
}

/**
 * The server answered -32042: the user must finish something in the browser first. Each page
 * goes through the elicitation port (host shown, opened only if the user agrees); then the user
 * retries when done.
 */
async function openPagesThenRetry(
  ctx: CallsContext,
  rec: CallRecord,
  pages: NonNullable<ReturnType<typeof urlElicitationsOf>>,
): Promise<CallRecord> {
  ctx.log.info(`${rec.server}/${rec.tool} needs ${pages.length} page(s) opened in the browser first (-32042)`);
  for (const p of pages) {
    const answer = await ctx.elicitation.elicit(rec.server, { mode: 'url', ...p });
    if (answer.action !== 'accept') {
      vscode.window.setStatusBarMessage(`MCP Host: ${rec.tool} not retried`, 5000);
      return rec;
    }
  }
  const choice = await vscode.window.showInformationMessage(
    `When you have finished in the browser, retry "${rec.tool}" on ${rec.server}.`,
    'Retry',
  );
  return choice === 'Retry' ? runToolCall(ctx, rec.server, rec.tool, rec.args) : rec;
}

async function rerun(ctx: CallsContext, rec: CallRecord): Promise<void> {
  const t = findTool(ctx, rec.server, rec.tool);
  // A tool that vanished (server stopped) still gets the call: the host reconnects or explains.
  if (t && !(await confirmDestructive(t))) return;
  await runToolCall(ctx, rec.server, rec.tool, rec.args);
}

export function toolCommands(
  ctx: CallsContext,
): Pick<CommandTable, 'mcpHost.callTool' | 'mcpHost.rerunLastToolCall' | 'mcpHost.toolCallHistory'> {
  return {
    'mcpHost.callTool': async (arg?: unknown) => {
      const target = readTarget(arg);
      let t: HostTool | undefined;
      if (target.server && target.tool) {
        t = findTool(ctx, target.server, target.tool);
        if (!t) {
          void vscode.window.showWarningMessage(
            `${target.server} has no tool "${target.tool}" right now (is the server connected?).`,
          );
          return;
        }
        if (ctx.toolFilter && !ctx.toolFilter.isEnabled(t.server, t.name)) {
          void vscode.window.showInformationMessage(
            `"${t.name}" of ${t.server} is turned off in this workspace. Tick its checkbox in the MCP Host view to call it.`,
          );
          return;
        }
      } else {
        t = await pickTool(ctx, target.server);
      }
      if (!t || !(await confirmDestructive(t))) return;
      const args = await collectToolArgs(t);
      if (args === undefined) return;
      await runToolCall(ctx, t.server, t.name, args);
    },
    'mcpHost.rerunLastToolCall': async () => {
      const last = ctx.history.last();
      if (!last) {
        void vscode.window.showInformationMessage(
          'No tool has been called yet in this window. Use "MCP Host: Call Tool…".',
        );
        return;
      }
      await rerun(ctx, last);
    },
    'mcpHost.toolCallHistory': async () => {
      const records = ctx.history.list();
      if (records.length === 0) {
        void vscode.window.showInformationMessage('No tool calls yet in this window.');
        return;
      }
      const items = records.map((rec) => ({
        label: `${rec.tool}`,
        description: `${rec.server} · ${new Date(rec.at).toLocaleTimeString()} · ${rec.outcome ?? 'running'}`,
        detail: summariseArgs(rec.args, 120),
        rec,
      }));
      const picked = await vscode.window.showQuickPick(items, {
        title: 'MCP Host: Tool Call History',
        placeHolder: 'Pick a call to run again with the same arguments',
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (picked) await rerun(ctx, picked.rec);
    },
  };
}
