import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, connectTimeoutFor, readSettings } from '../../../src/core/connection/settings.js';
import { MemoryLogger } from '../../support/logger.js';
import { isSessionExpired, isTerminalNetworkError, isUnauthorized } from '../../../src/core/connection/errors.js';
import { UnauthorizedError, SdkHttpError, SdkErrorCode } from '@modelcontextprotocol/client';

const logger = () => new MemoryLogger();

describe('connection settings', () => {
  test('defaults: 30 s connect, 3 local, 20 remote', () => {
    const s = readSettings({ logger: logger(), blobDir: '/tmp', env: {} });
    assert.equal(s.connectTimeoutMs, 30_000);
    assert.equal(s.localConcurrency, 3);
    assert.equal(s.remoteConcurrency, 20);
  });

  test('environment overrides options; a server timeout overrides both', () => {
    const s = readSettings({
      logger: logger(),
      blobDir: '/tmp',
      env: {
        MCP_TIMEOUT: '5000',
        MCP_TOOL_TIMEOUT: '7000',
        MCP_SERVER_CONNECTION_BATCH_SIZE: '2',
        MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE: '9',
      },
      timeouts: { connectMs: 1000, toolCallMs: 1000 },
      concurrency: { local: 5, remote: 5 },
    });
    assert.deepEqual(
      [s.connectTimeoutMs, s.toolTimeoutMs, s.localConcurrency, s.remoteConcurrency],
      [5000, 7000, 2, 9],
    );
    assert.equal(connectTimeoutFor({ type: 'stdio', command: 'x', args: [], timeout: 123 }, s), 123);
    assert.equal(connectTimeoutFor({ type: 'stdio', command: 'x', args: [] }, s), 5000);
  });

  test('bad values are ignored with a warning naming the variable', () => {
    const log = logger();
    const s = readSettings({
      logger: log,
      blobDir: '/tmp',
      env: { MCP_TIMEOUT: 'soon', MCP_SERVER_CONNECTION_BATCH_SIZE: '0' },
    });
    assert.equal(s.connectTimeoutMs, 30_000);
    assert.equal(s.localConcurrency, 3);
    assert.equal(log.messages('warn').length, 2);
    assert.match(log.messages('warn')[0], /MCP_TIMEOUT/);
  });

  test('backoff doubles and is capped', () => {
    const s = readSettings({ logger: logger(), blobDir: '/tmp', env: {} });
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelay(n, s)),
      [1000, 2000, 4000, 8000],
    );
    assert.equal(backoffDelay(20, s), 30_000);
  });
});

describe('error classification', () => {
  test('terminal network errors, through fetch cause chains', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    assert.equal(isTerminalNetworkError(refused), true);
    assert.equal(isTerminalNetworkError(new Error('SSE stream disconnected: TypeError: terminated')), true);
    assert.equal(isTerminalNetworkError(Object.assign(new Error('x'), { code: 'EPIPE' })), true);
    assert.equal(isTerminalNetworkError(new Error('Invalid params')), false);
  });

  test('session expiry is a 404 carrying -32001, not any -32001 (that is also the timeout code)', () => {
    assert.equal(
      isSessionExpired(
        new SdkHttpError(
          SdkErrorCode.ClientHttpNotImplemented,
          'Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
          { status: 404 },
        ),
      ),
      true,
    );
    assert.equal(
      isSessionExpired(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, '-32001', { status: 500 })),
      false,
    );
    assert.equal(isSessionExpired(new Error('MCP error -32001: Request timed out')), false);
  });

  test('401s and UnauthorizedError mean needs-auth', () => {
    assert.equal(isUnauthorized(new UnauthorizedError()), true);
    assert.equal(
      isUnauthorized(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'nope', { status: 401 })),
      true,
    );
    assert.equal(
      isUnauthorized(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'nope', { status: 403 })),
      false,
    );
  });
});
