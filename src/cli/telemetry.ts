/**
 * OpenTelemetry for `serve` and `serve --http`, on only when an OTLP endpoint is configured: the
 * `"gateway": {"telemetry": {"otlpEndpoint": …}}` key of a `--config` file (serve --http), else
 * the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (`/v1/traces` and `/v1/metrics` under it) or the
 * per-signal `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `…_METRICS_ENDPOINT`; `OTEL_SDK_DISABLED=true`
 * turns it off. The SDK and the OTLP/HTTP (JSON) exporters are loaded by `import()` only then, so
 * a gateway without telemetry loads none of it and wraps no transport. Core records through the
 * OpenTelemetry API (core/telemetry/) with the providers made here.
 */
import type { McpTelemetry } from '../core/telemetry/index.js';
import type { HostOptions } from '../core/host-api.js';
import type { TraceHub } from '../core/trace/index.js';
import { VERSION } from '../core/version.js';

export interface CliTelemetry {
  telemetry: McpTelemetry;
  /** Exports what is buffered and stops (bounded: a collector that is gone does not hold the exit). */
  shutdown(): Promise<void>;
}

export interface TelemetrySettings {
  /** The OTLP/HTTP base URL from the config file; wins over the environment. */
  otlpEndpoint?: string;
  serviceName?: string;
}

/** The SDK's own complaints (a collector that refuses or is gone), one a minute at most: they repeat every export. */
function sdkComplaints(warn: (line: string) => void): (message: string) => void {
  let last = -Infinity;
  return (message) => {
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    warn(`telemetry: ${message.slice(0, 300)}`);
  };
}

const signalUrl = (base: string, signal: 'traces' | 'metrics'): string => `${base.replace(/\/+$/, '')}/v1/${signal}`;

/** Where traces and metrics go, or undefined: telemetry off. */
export function telemetryEndpoints(
  env: NodeJS.ProcessEnv,
  settings: TelemetrySettings = {},
): { traces: string; metrics: string } | undefined {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return undefined;
  const base = settings.otlpEndpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const traces = settings.otlpEndpoint ? undefined : env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const metrics = settings.otlpEndpoint ? undefined : env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  if (!base && !traces && !metrics) return undefined;
  // One configured signal without the base sends the other to the same collector's path.
  const root = base || new URL(traces || metrics!).origin;
  return { traces: traces || signalUrl(root, 'traces'), metrics: metrics || signalUrl(root, 'metrics') };
}

/** `k1=v1,k2=v2` (OTEL_EXPORTER_OTLP_HEADERS, values URL-encoded): e.g. a collector's API key. */
function parseHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i <= 0) continue;
    try {
      out[pair.slice(0, i).trim()] = decodeURIComponent(pair.slice(i + 1).trim());
    } catch {
      // A malformed value is left out rather than sent half-decoded.
    }
  }
  return out;
}

const positive = (raw: string | undefined, fallback: number): number => {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/** Telemetry as configured, or undefined when it is off (nothing loaded then). */
export async function startTelemetry(
  env: NodeJS.ProcessEnv,
  settings: TelemetrySettings & { defaultServiceName: string; warn?: (line: string) => void },
): Promise<CliTelemetry | undefined> {
  const urls = telemetryEndpoints(env, settings);
  if (!urls) return undefined;
  // Core's telemetry too: with it the API, which a gateway without telemetry never loads either.
  const [ours, api, hooks, core, resources, sdkTrace, sdkMetrics, traceExporter, metricExporter] = await Promise.all([
    import('../core/telemetry/index.js'),
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/exporter-metrics-otlp-http'),
  ]);
  // A span's context must follow the request into the gateway's upstream call: async context.
  // Registered once per process (a second call finds it there and leaves it).
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  if (settings.warn) {
    const complain = sdkComplaints(settings.warn);
    const quiet = (): void => undefined;
    api.diag.setLogger(
      { error: complain, warn: complain, info: quiet, debug: quiet, verbose: quiet },
      api.DiagLogLevel.WARN,
    );
  }
  const headers = parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS);
  const resource = resources.resourceFromAttributes({
    'service.name': settings.serviceName ?? env.OTEL_SERVICE_NAME ?? settings.defaultServiceName,
    'service.version': VERSION,
  });
  const tracerProvider = new sdkTrace.TracerProvider({
    resource,
    spanProcessors: [
      new sdkTrace.BatchSpanProcessor({
        exporter: new traceExporter.OTLPTraceExporter({ url: urls.traces, headers }),
        scheduledDelayMillis: positive(env.OTEL_BSP_SCHEDULE_DELAY, 5000),
      }),
    ],
  });
  const meterProvider = new sdkMetrics.MeterProvider({
    resource,
    readers: [
      new sdkMetrics.PeriodicExportingMetricReader({
        exporter: new metricExporter.OTLPMetricExporter({ url: urls.metrics, headers }),
        exportIntervalMillis: positive(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
      }),
    ],
  });
  const propagator = new core.CompositePropagator({
    propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
  });
  return {
    telemetry: new ours.McpTelemetry({ tracerProvider, meterProvider, propagator }),
    async shutdown() {
      await Promise.race([
        Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]),
        new Promise((resolve) => setTimeout(resolve, 5000).unref()),
      ]);
    },
  };
}

/** The protocol trace (`--trace`) nearest the wire, telemetry around it: the trace shows the trace context sent. */
export function wrapTransports(
  hub: TraceHub | undefined,
  telemetry: McpTelemetry | undefined,
): Pick<HostOptions, 'wrapTransport'> {
  if (!hub && !telemetry) return {};
  return {
    wrapTransport: (def, t) => {
      const traced = hub ? hub.attach(def, t) : t;
      return telemetry ? telemetry.upstream(def, traced) : traced;
    },
  };
}
