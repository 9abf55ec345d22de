/** MCP telemetry through the OpenTelemetry API (traces and metrics per the MCP semantic conventions). */
export { McpTelemetry, wireOf } from './telemetry.js';
export type { TelemetryProviders } from './instruments.js';
export { ATTR, DURATION_BUCKETS, METRIC, TOOL_ERROR, type WireKind } from './semconv.js';
