/** Every command id the extension contributes; free of `vscode` so a unit test compares it with package.json. */
export const COMMAND_IDS = [
  'mcpHost.callTool',
  'mcpHost.readResource',
  'mcpHost.getPrompt',
  'mcpHost.startServer',
  'mcpHost.stopServer',
  'mcpHost.restartServer',
  'mcpHost.enableServer',
  'mcpHost.disableServer',
  'mcpHost.authenticate',
  'mcpHost.signOut',
  'mcpHost.showLogs',
  'mcpHost.addServer',
  'mcpHost.openConfig',
  'mcpHost.refresh',
  'mcpHost.rerunLastToolCall',
  'mcpHost.toolCallHistory',
  'mcpHost.sendSelectionToAgent',
  'mcpHost.ide.acceptDiff',
  'mcpHost.ide.rejectDiff',
  'mcpHost.showServerDetails',
  'mcpHost.revokeSamplingConsent',
  'mcpHost.showRunningTasks',
  'mcpHost.cancelTask',
  'mcpHost.connectAgent',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
