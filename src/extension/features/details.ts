/**
 * The server details document (`mcp-host-details:/<server>.md`): identity, state, capabilities
 * and the server's instructions whole (the tree's tooltip shows only a cut version).
 */
import * as vscode from 'vscode';
import type { ServerSnapshot } from '../../core/api.js';
import { stripMisleadingUnicode } from '../../core/capabilities/sanitize.js';
import { ConnectionStates } from '../../core/connection/state.js';
import { escapeInline, fence } from '../../core/forms/render-markdown.js';
import type { ConnectionManager } from '../../core/host.js';

export const DETAILS_SCHEME = 'mcp-host-details';

export function detailsMarkdown(s: ServerSnapshot, instructions: string | undefined): string {
  const st = s.state;
  const lines = [`# ${escapeInline(s.name)}`, '', `State: **${ConnectionStates.label(st)}**${st.kind === 'failed' ? ` — ${escapeInline(st.error.message)}` : ''}`, ''];
  if (st.kind === 'connected') {
    lines.push(`Server: ${escapeInline(st.serverInfo.title ?? st.serverInfo.name)} ${escapeInline(st.serverInfo.version)}`, '');
    lines.push(`${s.tools.length} tools, ${s.resources.length} resources, ${s.resourceTemplates.length} resource templates, ${s.prompts.length} prompts`, '');
    lines.push('## Instructions', '');
    // Shown as text, not rendered: they are the server's words to a model, not markup for us.
    lines.push(instructions ? fence(stripMisleadingUnicode(instructions), 'text') : '_The server sent no instructions._', '');
    lines.push('## Capabilities', '', fence(JSON.stringify(st.capabilities, null, 2), 'json'), '');
  } else {
    lines.push('Instructions and capabilities are shown once the server is connected.', '');
  }
  lines.push(`Defined in ${escapeInline(s.definition.source.file)} (${s.definition.source.scope})`);
  return lines.join('\n');
}

export interface DetailsDocuments extends vscode.Disposable {
  open(server: string): Promise<void>;
}

export function registerDetailsDocument(host: ConnectionManager): DetailsDocuments {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const uriOf = (server: string) => vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${server}.md` });
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const name = decodeURIComponent(uri.path.replace(/^\//, '').replace(/\.md$/, ''));
      const s = host.server(name);
      if (!s) return `# ${escapeInline(name)}\n\nNo such server in the configuration.\n`;
      // Only a live connection is asked (never connect a stopped server just to describe it).
      const instructions = s.state.kind === 'connected' ? await host.withClient(name, 'details', (c) => Promise.resolve(c.getInstructions())).catch(() => undefined) : undefined;
      return detailsMarkdown(host.server(name) ?? s, instructions);
    },
  };
  const registration = vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, provider);
  const sub = host.onDidChangeServer((e) => changed.fire(uriOf(e.name)));
  return {
    async open(server) {
      const doc = await vscode.workspace.openTextDocument(uriOf(server));
      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    dispose() {
      registration.dispose();
      sub.dispose();
      changed.dispose();
    },
  };
}
