import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerConfig } from '../../../src/core/config/types.js';
import { redactState } from '../../../src/core/connection/state.js';
import { def as makeDef } from '../../support/defs.js';

const def = (config: ServerConfig) => makeDef('s', config, { scope: 'user', file: 'f', jsonPath: [] });

test('every message a state stores is redacted: URL credentials, bearer tokens and the entry’s own header values', () => {
  const d = def({
    type: 'http',
    url: 'http://user:hunter2@example.test/mcp',
    headers: { 'X-Custom': 'header-value-123456' },
  });
  const failed = redactState(
    {
      kind: 'failed',
      error: {
        code: 'connection-closed',
        message: 's: lost the connection (fetch http://user:hunter2@example.test/mcp?api_key=abcdef123456 failed)',
        hint: 'sent X-Custom: header-value-123456',
      },
      at: 0,
    },
    d,
  );
  assert.ok(failed.kind === 'failed');
  assert.doesNotMatch(failed.error.message, /hunter2|abcdef123456/);
  assert.doesNotMatch(failed.error.hint!, /header-value-123456/);
  const auth = redactState(
    { kind: 'needs-auth', message: 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc.def rejected', at: 0 },
    d,
  );
  assert.ok(auth.kind === 'needs-auth');
  assert.doesNotMatch(auth.message, /eyJhbGciOiJIUzI1NiJ9/);
  const pending = { kind: 'pending', attempt: 1, maxAttempts: 1, since: 0 } as const;
  assert.equal(redactState(pending, d), pending);
});
