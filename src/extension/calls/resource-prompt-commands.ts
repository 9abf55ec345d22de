/**
 * `Read Resource…` (resources and templates, template variables asked for) and `Get Prompt…`
 * (arguments collected, messages shown, Copy offered). Same flow as Call Tool: pick, ask, run
 * under progress, open a read-only result.
 */
import * as vscode from 'vscode';
import { UriTemplate } from '@modelcontextprotocol/server';
import type { HostPrompt, HostResource, HostResourceTemplate } from '../../core/host-api.js';
import {
  collectForm,
  type FormUi,
  planForm,
  promptArgumentsSchema,
  promptPlainText,
  renderFailure,
  renderPrompt,
  renderResource,
} from '../../core/calls/index.js';
import { blobsOfContents, blobsOfRead, errorText, renderOptions, type CallsContext } from './context.js';
import { vscodeFormUi } from './form-ui.js';
import { runWithProgress } from './run-request.js';
import { completingFormUi } from '../features/completion-ui.js';
import { followResource } from '../features/subscriptions.js';
import { completeArgument, type CompletionRef } from '../../core/features/index.js';
import { readTarget } from './targets.js';
import type { CommandTable } from '../command-table.js';

type ResourcePick = vscode.QuickPickItem & ({ resource: HostResource } | { template: HostResourceTemplate });

function connected(ctx: CallsContext, server?: string) {
  return ctx.host.servers().filter((s) => s.state.kind === 'connected' && (server === undefined || s.name === server));
}

async function pickResource(
  ctx: CallsContext,
  server?: string,
): Promise<{ server: string; uri?: string; template?: string } | undefined> {
  const items: ResourcePick[] = [];
  for (const s of connected(ctx, server)) {
    for (const r of s.resources) {
      items.push({
        label: r.title ?? r.name,
        description: `${s.name} · ${r.uri}`,
        detail: r.description?.split('\n')[0],
        resource: r,
      });
    }
    for (const t of s.resourceTemplates) {
      items.push({
        label: `$(symbol-parameter) ${t.title ?? t.name}`,
        description: `${s.name} · ${t.uriTemplate}`,
        detail: t.description?.split('\n')[0],
        template: t,
      });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      `${server ? `${server} offers` : 'No connected server offers'} no resources. Check the MCP Host view for each server's state.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MCP Host: Read Resource',
    placeHolder: 'Pick a resource ($(symbol-parameter) templates ask for their variables)',
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return 'resource' in picked
    ? { server: picked.resource.server, uri: picked.resource.uri }
    : { server: picked.template.server, template: picked.template.uriTemplate };
}

/** The form UI for prompt arguments and template variables: completing as you type when the server offers completions. */
function argumentsUi(ctx: CallsContext, server: string, ref: CompletionRef): FormUi {
  const s = ctx.host.server(server);
  const base = vscodeFormUi();
  if (s?.state.kind !== 'connected' || s.state.capabilities.completions === undefined) return base;
  return completingFormUi(
    base,
    async (argument, value, context) =>
      (
        await ctx.host.withClient(
          server,
          'completion/complete',
          (c) => completeArgument(c, ref, { name: argument, value }, context),
          { timeoutMs: 10_000 },
        )
      ).values,
    ctx.log,
  );
}

/** Asks for a template's variables and expands it; undefined when cancelled. */
async function expandTemplate(ctx: CallsContext, server: string, template: string): Promise<string | undefined> {
  let tpl: UriTemplate;
  try {
    tpl = new UriTemplate(template);
  } catch (e) {
    void vscode.window.showErrorMessage(
      `${server} offers a resource template that cannot be parsed (${template}): ${(e as Error).message}`,
    );
    return undefined;
  }
  const names = [...new Set(tpl.variableNames)];
  const schema = {
    type: 'object',
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', description: `{${n}} in ${template}` }])),
    required: names,
  };
  const vars = await collectForm(planForm(schema), argumentsUi(ctx, server, { type: 'ref/resource', uri: template }), {
    title: `${server} / ${template}`,
  });
  if (!vars) return undefined;
  return tpl.expand(Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])));
}

/** Reads a resource into the Markdown of a result document (also used for links inside results). */
export async function resourceMarkdown(
  ctx: CallsContext,
  server: string,
  uri: string,
  signal?: AbortSignal,
): Promise<string> {
  const result = await ctx.host.readResource(server, uri, { signal });
  return renderResource({ server, uri, result }, await renderOptions(blobsOfRead(result)));
}

async function readAndShow(ctx: CallsContext, server: string, uri: string): Promise<void> {
  ctx.log.info(`reading ${uri} from ${server}`);
  const outcome = await runWithProgress(`${server}: reading ${uri}`, (opts) =>
    resourceMarkdown(ctx, server, uri, opts.signal),
  );
  const name = uri.split(/[/:]/).filter(Boolean).pop() ?? 'resource';
  if (outcome.kind === 'cancelled') {
    vscode.window.setStatusBarMessage('MCP Host: read cancelled', 5000);
    return;
  }
  if (outcome.kind === 'failed') {
    const message = errorText(outcome.error);
    ctx.log.error(`reading ${uri} from ${server} failed: ${message}`);
    await ctx.results.show(
      ctx.results.add(`${name} failed`, renderFailure({ server, title: `Reading ${uri} failed`, message })),
    );
    return;
  }
  const doc = ctx.results.add(name, outcome.value);
  await ctx.results.show(doc);
  await followResource(ctx, doc, server, uri, () => resourceMarkdown(ctx, server, uri));
}

async function pickPrompt(ctx: CallsContext, server?: string): Promise<HostPrompt | undefined> {
  const prompts = connected(ctx, server).flatMap((s) => s.prompts);
  if (prompts.length === 0) {
    void vscode.window.showInformationMessage(
      `${server ? `${server} offers` : 'No connected server offers'} no prompts. Check the MCP Host view for each server's state.`,
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    prompts.map((p) => ({
      label: p.title ?? p.name,
      description: `${p.server}${p.arguments.length ? ` · ${p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ')}` : ''}`,
      detail: p.description?.split('\n')[0],
      prompt: p,
    })),
    {
      title: 'MCP Host: Get Prompt',
      placeHolder: 'Pick a prompt',
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    },
  );
  return picked?.prompt;
}

async function getAndShowPrompt(ctx: CallsContext, p: HostPrompt): Promise<void> {
  const collected = await collectForm(
    planForm(promptArgumentsSchema(p.arguments)),
    argumentsUi(ctx, p.server, { type: 'ref/prompt', name: p.name }),
    { title: `${p.server} / ${p.name}` },
  );
  if (!collected) return;
  const args = Object.fromEntries(Object.entries(collected).map(([k, v]) => [k, String(v)]));
  ctx.log.info(`getting prompt ${p.name} from ${p.server}`);
  const outcome = await runWithProgress(`${p.server}: prompt ${p.name}`, (opts) =>
    ctx.host.getPrompt(p.server, p.name, args, opts),
  );
  if (outcome.kind === 'cancelled') {
    vscode.window.setStatusBarMessage('MCP Host: prompt cancelled', 5000);
    return;
  }
  if (outcome.kind === 'failed') {
    const message = errorText(outcome.error);
    ctx.log.error(`prompt ${p.name} from ${p.server} failed: ${message}`);
    await ctx.results.show(
      ctx.results.add(
        `${p.name} failed`,
        renderFailure({ server: p.server, title: `Prompt ${p.name} failed`, message, args }),
      ),
    );
    return;
  }
  const result = outcome.value;
  const md = renderPrompt(
    { server: p.server, name: p.name, args, result },
    await renderOptions(result.messages.flatMap((m) => blobsOfContents([m.content]))),
  );
  await ctx.results.show(ctx.results.add(`prompt ${p.name}`, md));
  const n = result.messages.length;
  // Not awaited: the command finishes when the document is open; Copy stays available meanwhile.
  void vscode.window
    .showInformationMessage(`Prompt "${p.name}": ${n} message${n === 1 ? '' : 's'}.`, 'Copy')
    .then(async (choice) => {
      if (choice === 'Copy') {
        await vscode.env.clipboard.writeText(promptPlainText(result));
        vscode.window.setStatusBarMessage('MCP Host: prompt messages copied', 5000);
      }
    });
}

export function resourcePromptCommands(
  ctx: CallsContext,
): Pick<CommandTable, 'mcpHost.readResource' | 'mcpHost.getPrompt'> {
  return {
    'mcpHost.readResource': async (arg?: unknown) => {
      const target = readTarget(arg);
      let server = target.server;
      let uri = target.uri;
      let template = target.uriTemplate;
      if (!server || (!uri && !template)) {
        const picked = await pickResource(ctx, server);
        if (!picked) return;
        ({ server, uri, template } = picked);
      }
      if (!uri && template) uri = await expandTemplate(ctx, server, template);
      if (!uri) return;
      await readAndShow(ctx, server, uri);
    },
    'mcpHost.getPrompt': async (arg?: unknown) => {
      const target = readTarget(arg);
      let p: HostPrompt | undefined;
      if (target.server && target.prompt) {
        p = ctx.host.server(target.server)?.prompts.find((x) => x.name === target.prompt);
        if (!p) {
          void vscode.window.showWarningMessage(
            `${target.server} has no prompt "${target.prompt}" right now (is the server connected?).`,
          );
          return;
        }
      } else {
        p = await pickPrompt(ctx, target.server);
      }
      if (p) await getAndShowPrompt(ctx, p);
    },
  };
}
