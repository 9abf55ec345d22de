/** The trace as readable text (the editor's trace document): one header line per message, its JSON below. */
import { filterRecords, type TraceFilter, type TraceRecord } from './record.js';

function size(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

function clock(iso: string): string {
  // HH:MM:SS.mmm of the ISO time: enough to read a session, the date is in the header.
  return iso.slice(11, 23);
}

/**
 * `10:21:03.180  ←  response  #1  initialize  57 ms  1.2 KB`, then the JSON (cut to
 * `maxJson` characters). `→` host to server, `←` server to host.
 */
export function formatTrace(
  server: string,
  records: readonly TraceRecord[],
  filter: TraceFilter = {},
  opts: { dropped?: number; maxJson?: number; enabled?: boolean } = {},
): string {
  const shown = filterRecords(records, filter);
  const max = opts.maxJson ?? 600;
  const what = [
    filter.method ? `method contains "${filter.method}"` : '',
    filter.direction ? (filter.direction === 'out' ? 'host → server only' : 'server → host only') : '',
  ]
    .filter(Boolean)
    .join(', ');
  const lines = [
    `Protocol trace of ${server}: ${shown.length} of ${records.length} messages${what ? ` (${what})` : ''}${opts.dropped ? `, ${opts.dropped} older ones dropped` : ''}`,
    opts.enabled === false
      ? 'Tracing is off for this server: turn it on with "MCP Host: Toggle Protocol Trace" or the mcpHost.trace.servers setting.'
      : '→ host to server   ← server to host   responses show the duration of their request',
    records[0] ? `Started ${records[0].time}` : '',
    '',
  ];
  const idW = Math.max(2, ...shown.map((r) => (r.id === undefined ? 0 : String(r.id).length + 1)));
  const mW = Math.min(40, Math.max(6, ...shown.map((r) => (r.method ?? '').length)));
  for (const r of shown) {
    const id = r.id === undefined ? '' : `#${r.id}`;
    const dur = r.durationMs !== undefined ? `${r.durationMs} ms` : '';
    lines.push(
      `${clock(r.time)}  ${r.direction === 'out' ? '→' : '←'}  ${r.kind.padEnd(12)} ${id.padEnd(idW)}  ${(r.method ?? '?').padEnd(mW)}  ${dur.padStart(8)}  ${size(r.size).padStart(8)}`,
    );
    const json = JSON.stringify(r.message);
    lines.push(
      `    ${json.length > max ? `${json.slice(0, max)}… (${json.length - max} more characters; export NDJSON for all of it)` : json}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
