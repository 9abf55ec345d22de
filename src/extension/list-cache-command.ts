/** "MCP Host: Clear Cached Server Lists": drops the lists kept between runs (core/connection/list-cache.ts). */
import * as vscode from 'vscode';
import type { ListCache } from '../core/connection/index.js';
import type { CommandTable } from './command-table.js';

export function clearListCacheCommand(cache: ListCache): Pick<CommandTable, 'mcpHost.clearListCache'> {
  return {
    'mcpHost.clearListCache': async () => {
      await cache.clear();
      void vscode.window.showInformationMessage(
        'MCP Host: cached server lists cleared. The next start shows tools once each server is connected.',
      );
    },
  };
}
