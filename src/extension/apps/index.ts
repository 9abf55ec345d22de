/**
 * MCP Apps in the editor: a tool whose result comes with an app (`_meta.ui.resourceUri`) opens it
 * in a panel. Calls the app makes run like a call from the palette (destructive confirmation,
 * cancellation, the host's timeout, the log); links open only after the person agrees.
 */
import * as vscode from 'vscode';
import type { HostTool, ToolCallResult } from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import { appCallConsent, AppSessionTrust, loadAppResource } from '../../core/apps/index.js';
import type { Logger } from '../../core/ports.js';
import { AppPanel } from './panel.js';

export interface AppRules {
  /**
   * Asks before a tool that is not read-only runs; `trust` when the person also trusted the app
   * for its session (offered only with `mayTrust`).
   */
  confirm(tool: HostTool, mayTrust: boolean): Promise<'run' | 'trust' | 'declined'>;
  /** The per-tool choice (tree checkboxes): a tool switched off is off for apps too. */
  isEnabled?(tool: HostTool): boolean;
}

export class AppsController implements vscode.Disposable {
  private readonly panels = new Set<AppPanel>();

  constructor(
    private readonly host: McpHost,
    /** The editor's redacting logger: an app's calls and errors carry server-supplied text. */
    private readonly log: Logger,
    private readonly rules: AppRules,
    private readonly hostInfo: { name: string; version: string },
  ) {}

  /**
   * Opens the app of a tool for a finished call. False when the tool has no app or the app could
   * not be loaded (the caller then shows the result as a document; the reason is in the log).
   */
  async open(tool: HostTool, args: Record<string, unknown>, result: ToolCallResult): Promise<boolean> {
    const uri = tool.ui?.resourceUri;
    if (!uri) return false;
    const { host, log } = this;
    // The person's trust in this app lasts as long as its panel.
    const session = new AppSessionTrust();
    try {
      const resource = await loadAppResource((u) => host.readResource(tool.server, u), uri);
      const panel = await AppPanel.open({
        tool,
        resource,
        args,
        result,
        log: this.log,
        hostInfo: this.hostInfo,
        ports: {
          tools: () => (host.server(tool.server)?.tools ?? []).filter((t) => this.rules.isEnabled?.(t) ?? true),
          resources: () => host.server(tool.server)?.resources ?? [],
          callTool: (t, callArgs, signal) => this.callForApp(tool, t, callArgs, signal, session),
          readResource: (u, signal) => host.readResource(tool.server, u, { signal }),
          openLink: (url) => this.askToOpen(tool, url),
        },
      });
      this.panels.add(panel);
      panel.panel.onDidDispose(() => this.panels.delete(panel));
      log.info(`${tool.server}/${tool.name}: opened its app ${uri}`);
      return true;
    } catch (e) {
      log.warn(
        `${tool.server}/${tool.name}: could not open its app ${uri}: ${e instanceof Error ? e.message : String(e)}; showing the result as a document`,
      );
      return false;
    }
  }

  private async callForApp(
    owner: HostTool,
    t: HostTool,
    args: Record<string, unknown>,
    signal: AbortSignal,
    session: AppSessionTrust,
  ): Promise<ToolCallResult> {
    const what = `${t.server}/${t.name} (asked by the app of ${owner.name})`;
    if (this.rules.isEnabled && !this.rules.isEnabled(t)) {
      this.log.info(`${what}: refused, the tool is switched off`);
      throw new Error(`${t.name} is switched off for this workspace (MCP Host tree).`);
    }
    const consent = appCallConsent(t, session);
    if (consent.kind === 'ask') {
      const answer = await this.rules.confirm(t, consent.mayTrust);
      if (answer === 'declined') {
        this.log.info(`${what}: declined`);
        throw new Error(`The user declined to run ${t.name}.`);
      }
      if (answer === 'trust') {
        session.trust();
        this.log.info(`${what}: the app of ${owner.name} is trusted until its panel closes`);
      }
    }
    this.log.info(`calling ${what}`);
    const started = Date.now();
    try {
      const r = await this.host.callTool(t.server, t.name, args, { signal });
      this.log.info(`${what} ${r.isError ? 'returned an error' : 'done'} in ${Math.round(r.durationMs)} ms`);
      return r;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.info(`${what} ${signal.aborted ? 'cancelled' : 'failed'} after ${Date.now() - started} ms: ${message}`);
      throw e;
    }
  }

  private async askToOpen(tool: HostTool, url: URL): Promise<boolean> {
    const choice = await vscode.window.showInformationMessage(
      `The app of "${tool.name}" (${tool.server}) wants to open a link.`,
      { modal: true, detail: url.href },
      'Open Link',
    );
    if (choice !== 'Open Link') return false;
    return vscode.env.openExternal(vscode.Uri.parse(url.href, true));
  }

  dispose(): void {
    for (const p of this.panels) p.dispose();
    this.panels.clear();
  }
}
