/** The one "what would run" line: connect errors, the approval prompt and `mcp-host doctor` use it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeTarget } from '../../../src/core/config/describe.js';

test('describeTarget: the command line, the URL or the in-process id, with secrets redacted', () => {
  assert.equal(
    describeTarget({ type: 'stdio', command: 'npx', args: ['-y', 'server-everything'] }),
    'npx -y server-everything',
  );
  assert.equal(
    describeTarget({ type: 'stdio', command: 'srv', args: ['--api-key', 'abcdef123456'] }),
    'srv --api-key [redacted]',
  );
  assert.equal(
    describeTarget({ type: 'http', url: 'https://u:p@h.test/mcp?token=abc' }),
    'https://[redacted]:[redacted]@h.test/mcp?token=[redacted]',
  );
  assert.equal(describeTarget({ type: 'inprocess', id: 'x', start: async () => {} }), 'in-process x');
});
