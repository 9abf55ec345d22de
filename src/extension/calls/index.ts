/**
 * Tool calls, resource reads, prompt gets and elicitation in the editor (issue 4). main.ts calls
 * `registerCallCommands` once and passes a `VsCodeElicitationPort` as `HostOptions.elicitation`.
 */
import type * as vscode from 'vscode';
import type { ElicitationPort, McpHost } from '../../core/api.js';
import { CallHistory } from '../../core/forms/call-history.js';
import type { CallsContext } from './context.js';
import { registerResourcePromptCommands, resourceMarkdown } from './resource-prompt-commands.js';
import { ResultDocuments } from './result-documents.js';
import { VsCodeElicitationPort } from './elicitation.js';
import { registerJsonEditor } from './json-editor.js';
import { registerToolCommands } from './tool-calls.js';

export { VsCodeElicitationPort } from './elicitation.js';
export { RESULT_SCHEME } from './result-documents.js';

/**
 * Registers `mcpHost.callTool`, `mcpHost.rerunLastToolCall`, `mcpHost.toolCallHistory`,
 * `mcpHost.readResource`, `mcpHost.getPrompt` and the `mcp-host-result:` documents.
 * `elicitation` (the port given to the host, if at hand) handles the URL pages a failed call
 * asks for (-32042); by default a port of its own is used.
 */
export function registerCallCommands(
  context: vscode.ExtensionContext,
  host: McpHost,
  log: vscode.LogOutputChannel,
  elicitation: ElicitationPort = new VsCodeElicitationPort(log),
): CallHistory {
  // Links inside results read resources through the same context the commands use.
  const results: ResultDocuments = new ResultDocuments((server, uri) => resourceMarkdown(ctx, server, uri), log);
  const ctx: CallsContext = { host, log, results, history: new CallHistory(20), elicitation };
  context.subscriptions.push(results, registerJsonEditor(), ...registerToolCommands(ctx), ...registerResourcePromptCommands(ctx));
  // The Inspector commands export and copy from the same history (src/extension/inspector).
  return ctx.history;
}
