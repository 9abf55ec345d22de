/**
 * Read-only result documents on the `mcp-host-result:` scheme, shown in the Markdown preview so
 * images (data URIs) render. Results live in memory for the session only.
 *
 * Resource links inside a result are relative links to `mcp-host-result:/read/<token>/<name>.md`.
 * The Markdown preview refuses `command:` and custom-scheme links, but resolves relative links
 * against the document itself and opens the target in the preview; opening such a document
 * reads the resource (see `provideTextDocumentContent`).
 */
import * as vscode from 'vscode';
import { parseReadPath, resultPath } from '../../core/calls/index.js';
import type { ChannelLogger } from '../ports/logger.js';

export { resourceLinkHref } from '../../core/calls/index.js';

export const RESULT_SCHEME = 'mcp-host-result';

/** Kept results; older ones are dropped (a reopened old tab then says so). */
const MAX_RESULTS = 100;
/** Inline images make results large: keep at most this many characters in all. */
const MAX_TOTAL_CHARS = 64 * 1024 * 1024;

/** Reads a resource into Markdown for a link opened from a result. */
export type ResourceRenderer = (server: string, uri: string) => Promise<string>;

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private totalChars = 0;
  private counter = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly renderResource: ResourceRenderer,
    private readonly log: ChannelLogger,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const kept = this.docs.get(uri.path);
    if (kept !== undefined) return kept;
    const link = parseReadPath(uri.path);
    if (link) {
      try {
        const md = await this.renderResource(link.server, link.uri);
        this.keep(uri.path, md);
        return md;
      } catch (e) {
        this.log.warn(`reading ${link.uri} from ${link.server} failed: ${(e as Error).message}`);
        return `# ❌ Could not read ${link.uri}\n\n> **Error:** ${(e as Error).message}\n`;
      }
    }
    return '# Result no longer available\n\nResults are kept in memory for this session only. Run the call again.\n';
  }

  /** Stores a result and returns its URI; `name` becomes the tab title (`<name>.md`). */
  add(name: string, markdown: string): vscode.Uri {
    const path = resultPath(++this.counter, name);
    this.keep(path, markdown);
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path });
  }

  /** New content for a kept result (a subscribed resource that changed); open views re-render. */
  replace(uri: vscode.Uri, markdown: string): void {
    this.keep(uri.path, markdown);
    this.changed.fire(uri);
  }

  /** The text of a kept result (for Copy). */
  text(uri: vscode.Uri): string | undefined {
    return this.docs.get(uri.path);
  }

  /** Shows a result in the Markdown preview; falls back to the Markdown source when the preview is unavailable. */
  async show(uri: vscode.Uri): Promise<void> {
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch (e) {
      this.log.debug(`Markdown preview unavailable (${(e as Error).message}); showing the source`);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    }
  }

  private keep(path: string, markdown: string): void {
    this.totalChars += markdown.length - (this.docs.get(path)?.length ?? 0);
    this.docs.set(path, markdown);
    while (this.docs.size > 1 && (this.docs.size > MAX_RESULTS || this.totalChars > MAX_TOTAL_CHARS)) {
      const [oldest, text] = this.docs.entries().next().value as [string, string];
      this.docs.delete(oldest);
      this.totalChars -= text.length;
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.docs.clear();
    this.totalChars = 0;
  }
}
