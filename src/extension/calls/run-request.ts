/**
 * Runs one request (tool call, resource read, prompt get) under a cancellable progress
 * notification. Cancel aborts the signal (the SDK then sends `notifications/cancelled`); server
 * progress notifications update the message and the bar.
 */
import * as vscode from 'vscode';
import { HostError } from '../../core/errors.js';
import type { CallOptions } from '../../core/host-api.js';

export type RunOutcome<T> = { kind: 'ok'; value: T } | { kind: 'cancelled' } | { kind: 'failed'; error: Error };

export async function runWithProgress<T>(title: string, op: (opts: CallOptions) => Promise<T>): Promise<RunOutcome<T>> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort());
      let shownPct = 0;
      try {
        const value = await op({
          signal: ac.signal,
          // A tool running as a task: its status is the message; Cancel then sends tasks/cancel.
          onTaskStatus: (t) =>
            progress.report({
              message: `task ${t.status.replace('_', ' ')}${t.statusMessage ? `: ${t.statusMessage}` : ''}`,
            }),
          onProgress: (p) => {
            let increment: number | undefined;
            if (p.total !== undefined && p.total > 0) {
              const pct = Math.min(100, Math.max(0, (p.progress / p.total) * 100));
              if (pct > shownPct) {
                increment = pct - shownPct;
                shownPct = pct;
              }
            }
            const count = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
            progress.report({ message: p.message ? `${p.message} (${count})` : count, increment });
          },
        });
        return { kind: 'ok', value };
      } catch (e) {
        // Also a task cancelled elsewhere (the Running Tasks view): the user's act, not a failure.
        if (ac.signal.aborted || (e instanceof HostError && e.code === 'cancelled')) return { kind: 'cancelled' };
        return { kind: 'failed', error: e instanceof Error ? e : new Error(String(e)) };
      } finally {
        sub.dispose();
      }
    },
  );
}
