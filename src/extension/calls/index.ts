/**
 * Tool calls, resource reads, prompt gets and elicitation in the editor. main.ts calls
 * `registerCallCommands` once and passes a `VsCodeElicitationPort` as `HostOptions.elicitation`.
 */
import type * as vscode from 'vscode';
import type { ElicitationPort } from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import type { ToolFilter } from '../../core/tools/index.js';
import { CallHistory } from '../../core/calls/index.js';
import type { CallsContext } from './context.js';
import { resourcePromptCommands, resourceMarkdown } from './resource-prompt-commands.js';
import { ResultDocuments } from './result-documents.js';
import { VsCodeElicitationPort } from './elicitation.js';
import { registerJsonEditor } from './json-editor.js';
import { askToRun, toolCommands } from './tool-calls.js';
import type { ChannelLogger } from '../ports/logger.js';
import type { CommandTable } from '../command-table.js';
import type { AppsController } from '../apps/index.js';

export { VsCodeElicitationPort } from './elicitation.js';
export { RESULT_SCHEME } from './result-documents.js';

/**
 * The handlers of `mcpHost.callTool`, `mcpHost.rerunLastToolCall`, `mcpHost.toolCallHistory`,
 * `mcpHost.readResource`, `mcpHost.getPrompt` and the `mcp-host-result:` documents.
 * `elicitation` (the port given to the host, if at hand) handles the URL pages a failed call
 * asks for (-32042); by default a port of its own is used.
 */
export function registerCallCommands(
  context: vscode.ExtensionContext,
  host: McpHost,
  log: ChannelLogger,
  elicitation: ElicitationPort = new VsCodeElicitationPort(log),
  /** Shared with the Inspector commands (export as JSON, copy as a command line). */
  history: CallHistory = new CallHistory(20),
  toolFilter?: ToolFilter,
): Pick<
  CommandTable,
  | 'mcpHost.callTool'
  | 'mcpHost.rerunLastToolCall'
  | 'mcpHost.toolCallHistory'
  | 'mcpHost.readResource'
  | 'mcpHost.getPrompt'
> {
  // Links inside results read resources through the same context the commands use.
  const results: ResultDocuments = new ResultDocuments((server, uri) => resourceMarkdown(ctx, server, uri), log);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const apps = lazyApps(
    (Apps) =>
      new Apps(
        host,
        log,
        { confirm: askToRun, isEnabled: (t) => toolFilter?.isEnabled(t.server, t.name) ?? true },
        { name: 'mcp-host-vscode', version },
      ),
  );
  const ctx: CallsContext = { host, log, results, history, elicitation, apps, ...(toolFilter ? { toolFilter } : {}) };
  context.subscriptions.push(results, apps, registerJsonEditor());
  return { ...toolCommands(ctx), ...resourcePromptCommands(ctx) };
}

/**
 * MCP Apps load with the first tool result that has an app (dist/apps.js, scripts/lib/lazy-bundles.mjs):
 * most windows never open one.
 */
function lazyApps(
  make: (Apps: typeof AppsController) => AppsController,
): NonNullable<CallsContext['apps']> & vscode.Disposable {
  let apps: Promise<AppsController> | undefined;
  let disposed = false;
  return {
    open: async (tool, args, result) => {
      apps ??= import('../apps/index.js').then((m) => make(m.AppsController));
      const a = await apps;
      return !disposed && a.open(tool, args, result);
    },
    dispose: () => {
      disposed = true;
      void apps?.then((a) => a.dispose());
    },
  };
}
