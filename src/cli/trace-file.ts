/**
 * `--trace FILE`: every JSON-RPC message of the run, redacted, one NDJSON line each, written as it
 * passes (synchronously, so a run that is interrupted still leaves what it saw). File mode 0600:
 * a trace may hold the user's data even when secrets are redacted.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { toNdjson, TraceHub } from '../core/trace/index.js';
import { usageError } from './errors.js';

export interface TraceFile {
  hub: TraceHub;
  close(): void;
}

export function openTraceFile(path: string): TraceFile {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (err) {
    throw usageError(`--trace ${path}: cannot write the file (${err instanceof Error ? err.message : String(err)})`);
  }
  let open = true;
  // The CLI keeps nothing in memory: the file is the trace.
  const hub = new TraceHub({ enabled: '*', capacity: 1, sink: (r) => open && writeSync(fd, toNdjson([r])) });
  return {
    hub,
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
      hub.dispose();
    },
  };
}
