/** Tool-call history as a JSON document, and each call as an `mcp-host call` line. */
import type { CallRecord } from '../calls/call-history.js';
import { mcpHostCallLine } from '../dev/copy-as.js';
import { redactValue } from '../redact.js';

/**
 * Oldest first, times in ISO, each with the command line that repeats it. Arguments go through
 * the log redaction: an exported file is easily shared, and a token typed into a call is not for it.
 */
export function historyJson(records: readonly CallRecord[]): string {
  const calls = [...records].reverse().map((r) => {
    const args = redactValue(r.args) as Record<string, unknown>;
    return {
      server: r.server,
      tool: r.tool,
      arguments: args,
      startedAt: new Date(r.at).toISOString(),
      outcome: r.outcome ?? 'running',
      ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
      commandLine: mcpHostCallLine(r.server, r.tool, args),
    };
  });
  return `${JSON.stringify({ calls }, null, 2)}\n`;
}
