// When the CLI turns telemetry on (cli/telemetry.ts): only with an OTLP endpoint, the config
// file's winning over the environment, per-signal endpoints kept, OTEL_SDK_DISABLED honoured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTelemetry, telemetryEndpoints } from '../../../src/cli/telemetry.js';

test('off unless an endpoint is configured, and off when the SDK is disabled', async () => {
  assert.equal(telemetryEndpoints({}), undefined);
  assert.equal(telemetryEndpoints({ OTEL_SERVICE_NAME: 'x' }), undefined);
  assert.equal(
    telemetryEndpoints({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }, {}),
    undefined,
  );
  assert.equal(await startTelemetry({}, { defaultServiceName: 'mcp-host' }), undefined, 'nothing loaded, nothing made');
});

test('the base endpoint gets the signal paths; per-signal endpoints are used as given; the file wins', () => {
  assert.deepEqual(telemetryEndpoints({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }), {
    traces: 'http://c:4318/v1/traces',
    metrics: 'http://c:4318/v1/metrics',
  });
  assert.deepEqual(
    telemetryEndpoints({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:9999/traces',
    }),
    { traces: 'http://t:9999/traces', metrics: 'http://c:4318/v1/metrics' },
  );
  assert.deepEqual(telemetryEndpoints({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:1/x' }), {
    traces: 'http://m:1/v1/traces',
    metrics: 'http://m:1/x',
  });
  assert.deepEqual(
    telemetryEndpoints(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:1/t' },
      { otlpEndpoint: 'https://file.example.com' },
    ),
    { traces: 'https://file.example.com/v1/traces', metrics: 'https://file.example.com/v1/metrics' },
  );
});
