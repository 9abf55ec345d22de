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

export const RESULT_SCHEME = 'mcp-host-result';

/** Kept results; older ones are dropped (a reopened old tab then says so). */
const MAX_RESULTS = 100;

/** Reads a resource into Markdown for a link opened from a result. */
export type ResourceRenderer = (server: string, uri: string) => Promise<string>;

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private counter = 0;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly renderResource: ResourceRenderer,
    private readonly log: vscode.LogOutputChannel,
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
        this.docs.set(uri.path, md);
        this.trim();
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
    const id = ++this.counter;
    const path = `/r/${id}/${safeName(name)}.md`;
    this.docs.set(path, markdown);
    this.trim();
    return vscode.Uri.from({ scheme: RESULT_SCHEME, path });
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

  private trim(): void {
    while (this.docs.size > MAX_RESULTS) {
      const oldest = this.docs.keys().next().value;
      if (oldest === undefined) break;
      this.docs.delete(oldest);
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.docs.clear();
  }
}

function safeName(name: string): string {
  const s = name.replace(/[^\w.@-]+/g, '-').replace(/^-+|-+$/g, '');
  return (s || 'result').slice(0, 80);
}

function b64url(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64url');
}

/**
 * The href for a resource link inside a result document: relative, so the Markdown preview
 * resolves it against the result's own URI (`/r/<id>/x.md` → `/read/<token>/<name>.md`).
 */
export function resourceLinkHref(server: string, uri: string): string {
  const name = safeName(uri.split(/[/:]/).filter(Boolean).pop() ?? 'resource');
  return `../../read/${b64url(JSON.stringify([server, uri]))}/${name}.md`;
}

/** The URI a resource link points at, for opening it directly. */
export function resourceLinkUri(server: string, uri: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESULT_SCHEME, path: resourceLinkHref(server, uri).replace(/^\.\.\/\.\./, '') });
}

function parseReadPath(path: string): { server: string; uri: string } | undefined {
  const m = /^\/read\/([A-Za-z0-9_-]+)\//.exec(path);
  if (!m) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
    if (Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string') return { server: v[0], uri: v[1] };
  } catch {
    // A hand-edited or truncated link: fall through to "not available".
  }
  return undefined;
}
