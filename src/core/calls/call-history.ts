/**
 * The short history of tool calls behind "Re-run Last Tool Call" and "Tool Call History…".
 * Kept in memory only: arguments may hold secrets a user typed, and nothing typed into a tool
 * call is written to settings or files.
 */

export interface CallRecord {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Epoch ms when the call started. */
  at: number;
  /** How it ended; undefined while it runs. */
  outcome?: 'ok' | 'error' | 'cancelled' | 'failed';
  durationMs?: number;
}

export class CallHistory {
  private readonly records: CallRecord[] = [];

  constructor(private readonly max = 20) {}

  /** Adds a call (newest first) and returns the record, to be completed with `finish`. */
  add(server: string, tool: string, args: Record<string, unknown>, at: number): CallRecord {
    const rec: CallRecord = { server, tool, args: structuredClone(args), at };
    this.records.unshift(rec);
    if (this.records.length > this.max) this.records.length = this.max;
    return rec;
  }

  finish(rec: CallRecord, outcome: NonNullable<CallRecord['outcome']>, durationMs: number): void {
    rec.outcome = outcome;
    rec.durationMs = durationMs;
  }

  /** Newest first. */
  list(): readonly CallRecord[] {
    return this.records;
  }

  last(): CallRecord | undefined {
    return this.records[0];
  }
}

/** A one-line summary of arguments for a pick list, cut to `max` characters. */
export function summariseArgs(args: Record<string, unknown>, max = 80): string {
  const text = Object.keys(args).length === 0 ? '(no arguments)' : JSON.stringify(args);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
