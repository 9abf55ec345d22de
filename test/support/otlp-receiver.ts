/**
 * An OTLP/HTTP receiver on loopback: what a collector is to the exporter, the wire peer of
 * telemetry tests. It keeps every JSON body POSTed to /v1/traces and /v1/metrics (the OTLP/HTTP
 * JSON encoding the exporters send) and flattens them into spans and histogram points to assert on.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's enum: 2 SERVER, 3 CLIENT. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status?: { code?: number; message?: string };
  service: string | undefined;
}

export interface OtlpPoint {
  metric: string;
  unit: string;
  attributes: Record<string, string | number | boolean>;
  count: number;
  explicitBounds: number[];
}

export const SPAN_KIND = { SERVER: 2, CLIENT: 3 } as const;

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''));
const attrs = (kvs: KeyValue[] | undefined): Record<string, string | number | boolean> =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

export interface OtlpReceiver {
  url: string;
  /** Every POST, by path (`/v1/traces`, `/v1/metrics`, anything else a misconfigured exporter sent). */
  requests: { path: string; contentType: string | undefined }[];
  spans(): OtlpSpan[];
  points(): OtlpPoint[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const traces: unknown[] = [];
  const metrics: unknown[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ path, contentType: req.headers['content-type'] });
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (path === '/v1/traces') traces.push(body);
        if (path === '/v1/metrics') metrics.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  type Res = { resource?: { attributes?: KeyValue[] } };
  const service = (r: Res): string | undefined => attrs(r.resource?.attributes)['service.name'] as string | undefined;
  return {
    url,
    requests,
    spans: () =>
      traces.flatMap((t) =>
        (
          (t as { resourceSpans?: (Res & { scopeSpans?: { spans?: Record<string, unknown>[] }[] })[] }).resourceSpans ??
          []
        ).flatMap((rs) =>
          (rs.scopeSpans ?? []).flatMap((ss) =>
            (ss.spans ?? []).map((s) => ({
              traceId: s.traceId as string,
              spanId: s.spanId as string,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId as string } : {}),
              name: s.name as string,
              kind: s.kind as number,
              attributes: attrs(s.attributes as KeyValue[]),
              ...(s.status ? { status: s.status as { code?: number; message?: string } } : {}),
              service: service(rs),
            })),
          ),
        ),
      ),
    points: () =>
      metrics.flatMap((m) =>
        (
          (m as { resourceMetrics?: { scopeMetrics?: { metrics?: Record<string, unknown>[] }[] }[] }).resourceMetrics ??
          []
        ).flatMap((rm) =>
          (rm.scopeMetrics ?? []).flatMap((sm) =>
            (sm.metrics ?? []).flatMap((metric) => {
              const h = metric.histogram as { dataPoints?: Record<string, unknown>[] } | undefined;
              return (h?.dataPoints ?? []).map((p) => ({
                metric: metric.name as string,
                unit: metric.unit as string,
                attributes: attrs(p.attributes as KeyValue[]),
                count: Number(p.count),
                explicitBounds: (p.explicitBounds as number[] | undefined) ?? [],
              }));
            }),
          ),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
