export { TraceHub, DEFAULT_TRACE_CAPACITY, type TraceHubOptions } from './hub.js';
export { RingBuffer } from './ring.js';
export {
  classify,
  filterRecords,
  makeRecord,
  parseNdjson,
  redactMessage,
  RequestPairer,
  toNdjson,
  type TraceDirection,
  type TraceFilter,
  type TraceKind,
  type TraceRecord,
} from './record.js';
export { traceTransport, type MessageObserver } from './transport.js';
export { FORWARDED_METHODS, framePath, markFastFrame, type FramePath, type PathCounts } from './fast-frames.js';

// Used by the editor and the CLI, which import only this module (scripts/lib/import-layers.mjs).
export { formatTrace } from './format.js';
