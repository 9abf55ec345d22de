import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CliError, EXIT, exitCodeFor } from '../../../src/cli/errors.js';
import { HostError } from '../../../src/core/errors.js';
import { formatJsonPath, formatProblem } from '../../../src/cli/session.js';

test('host errors map to the contract exit codes', () => {
  assert.equal(exitCodeFor(new HostError('unknown-server', 'x')), EXIT.usage);
  assert.equal(exitCodeFor(new HostError('unknown-tool', 'x')), EXIT.usage);
  assert.equal(exitCodeFor(new HostError('invalid-arguments', 'x')), EXIT.usage);
  assert.equal(exitCodeFor(new HostError('disabled', 'x')), EXIT.usage);
  assert.equal(exitCodeFor(new HostError('request-timeout', 'x')), EXIT.connection);
  assert.equal(exitCodeFor(new HostError('connect-timeout', 'x')), EXIT.connection);
  assert.equal(exitCodeFor(new HostError('server-exited', 'x')), EXIT.connection);
  assert.equal(exitCodeFor(new HostError('needs-auth', 'x')), EXIT.connection);
  assert.equal(exitCodeFor(new HostError('server-error', 'x')), EXIT.toolError);
  assert.equal(exitCodeFor(new CliError(EXIT.usage, 'x')), EXIT.usage);
  assert.equal(exitCodeFor(new Error('anything else')), EXIT.connection);
});

test('config problems print as file:line:col with the JSON path', () => {
  assert.equal(
    formatProblem({
      severity: 'error',
      code: 'schema',
      message: 'bad',
      file: '/w/.mcp.json',
      jsonPath: ['mcpServers', 'a b', 'args', 0],
      line: 3,
      column: 7,
    }),
    '/w/.mcp.json:3:7: error: bad (at mcpServers["a b"].args[0])',
  );
  assert.equal(
    formatProblem({
      severity: 'warning',
      code: 'shadowed',
      message: 'm',
      file: 'settings:mcpHost.servers',
      jsonPath: [],
    }),
    'settings:mcpHost.servers: warning: m',
  );
  assert.equal(formatJsonPath(['servers', 'my-server', 'env']), 'servers.my-server.env');
});
