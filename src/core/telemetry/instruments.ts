/**
 * The tracer, the four histograms and the propagator one `McpTelemetry` records with, made from
 * the providers it is given (the CLI's OTLP SDK, core/../cli/telemetry.ts) or the global ones.
 */
import {
  metrics,
  propagation,
  trace,
  type Histogram,
  type MeterProvider,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { VERSION } from '../version.js';
import { DURATION_BUCKETS, METRIC } from './semconv.js';

export interface TelemetryProviders {
  tracerProvider?: TracerProvider;
  meterProvider?: MeterProvider;
  /** How trace context is written into and read from `params._meta`; default the global one. */
  propagator?: TextMapPropagator;
}

export interface TelemetryInstruments {
  tracer: Tracer;
  propagator: TextMapPropagator;
  serverOperation: Histogram;
  clientOperation: Histogram;
  serverSession: Histogram;
  clientSession: Histogram;
}

const SCOPE = 'mcp-host';

export function makeInstruments(p: TelemetryProviders): TelemetryInstruments {
  const meter = (p.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const histogram = (name: string, description: string): Histogram =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  return {
    tracer: (p.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION),
    propagator: p.propagator ?? propagation,
    serverOperation: histogram(
      METRIC.serverOperation,
      'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
    ),
    clientOperation: histogram(
      METRIC.clientOperation,
      'The duration of the MCP request as observed on the sender from the time it was sent until the response is received.',
    ),
    serverSession: histogram(METRIC.serverSession, 'The duration of the MCP session as observed on the MCP server.'),
    clientSession: histogram(METRIC.clientSession, 'The duration of the MCP session as observed on the MCP client.'),
  };
}
