/**
 * One MCP App in an editor tab: a webview panel showing the page from `appDocument`, a message
 * pipe between the panel and the bridge, the editor theme as host context, size changes applied
 * to the frame. The panel keeps its context while hidden (an app's state lives in its frame and
 * cannot be rebuilt from outside), and closing it tears the app down.
 */
import * as vscode from 'vscode';
import type { HostTool, ToolCallResult } from '../../core/host-api.js';
import {
  appDocument,
  type AppHostPorts,
  type AppResource,
  AppSession,
  appStyleVariables,
  buildAppCsp,
  loadAppBridge,
  type MessagePipe,
} from '../../core/apps/index.js';
import type { Logger } from '../../core/ports.js';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };

export const APP_VIEW_TYPE = 'mcpHost.app';

type Theme = 'light' | 'dark';

export function editorTheme(kind: vscode.ColorThemeKind = vscode.window.activeColorTheme.kind): Theme {
  return kind === vscode.ColorThemeKind.Light || kind === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
}

function hostContext(variables: Record<string, string>): McpUiHostContext {
  return {
    theme: editorTheme(),
    platform: 'desktop',
    locale: vscode.env.language,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    ...(Object.keys(variables).length > 0
      ? { styles: { variables: variables as NonNullable<McpUiHostContext['styles']>['variables'] } }
      : {}),
  };
}

/** The panel's side of the pipe: only `{kind: 'app', message}` envelopes from our page count. */
function panelPipe(panel: vscode.WebviewPanel): MessagePipe {
  return {
    post: (message) => {
      void panel.webview.postMessage({ kind: 'to-app', message });
    },
    onMessage: (listener) =>
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (typeof m === 'object' && m !== null && (m as { kind?: unknown }).kind === 'app')
          listener((m as { message?: unknown }).message);
      }),
  };
}

export interface OpenAppOptions {
  tool: HostTool;
  resource: AppResource;
  args: Record<string, unknown>;
  result: ToolCallResult;
  ports: Omit<AppHostPorts, 'resize' | 'requestClose'>;
  log: Logger;
  hostInfo: { name: string; version: string };
}

export class AppPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private session: AppSession | undefined;
  private disposed = false;

  private constructor(readonly panel: vscode.WebviewPanel) {}

  static async open(o: OpenAppOptions): Promise<AppPanel> {
    const { policy, rejected } = buildAppCsp(o.resource.meta.csp);
    if (rejected.length > 0)
      o.log.warn(
        `app ${o.resource.uri} of ${o.tool.server}: ignored CSP sources that are not plain origins: ${rejected.join(', ')}`,
      );
    const title = `${o.tool.title ?? o.tool.name} (${o.tool.server})`;
    const panel = vscode.window.createWebviewPanel(
      APP_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      // No local resources: the app gets nothing from disk, only what its HTML carries.
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [], enableFindWidget: false },
    );
    const self = new AppPanel(panel);
    try {
      await self.attach(o, policy, title);
    } catch (e) {
      panel.dispose();
      throw e;
    }
    return self;
  }

  private async attach(o: OpenAppOptions, policy: string, title: string): Promise<void> {
    const { panel } = this;
    const { buildAllowAttribute } = await loadAppBridge();
    let variables: Record<string, string> = {};
    const session = await AppSession.create({
      server: o.tool.server,
      tool: o.tool,
      pipe: panelPipe(panel),
      hostContext: hostContext(variables),
      hostInfo: o.hostInfo,
      log: o.log,
      ports: {
        ...o.ports,
        resize: (size) => {
          if (size.height !== undefined) void panel.webview.postMessage({ kind: 'size', height: size.height });
        },
        requestClose: () => this.dispose(),
      },
    });
    this.session = session;
    this.disposables.push(
      panel.onDidDispose(() => {
        this.disposed = true;
        o.log.info(`closed the app of ${o.tool.server}/${o.tool.name}`);
        void session.close(true);
        for (const d of this.disposables.splice(0)) d.dispose();
      }),
      vscode.window.onDidChangeActiveColorTheme(() => session.updateHostContext(hostContext(variables))),
      // The page reports the theme's colours and fonts (they exist only inside the webview).
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (typeof m !== 'object' || m === null || (m as { kind?: unknown }).kind !== 'styles') return;
        variables = appStyleVariables((m as { variables?: unknown }).variables);
        session.updateHostContext(hostContext(variables));
      }),
    );
    await session.start();
    session.deliverInput(o.args);
    session.deliverResult(o.result);
    panel.webview.html = appDocument({
      html: o.resource.html,
      csp: policy,
      allow: buildAllowAttribute(o.resource.meta.permissions),
      title,
      border: o.resource.meta.prefersBorder === true,
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const session = this.session;
    // Ask the app to clean up while its frame still exists, then close the tab.
    void (async () => {
      await session?.close();
      this.panel.dispose();
    })();
  }
}
