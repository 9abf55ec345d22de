import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusView } from '../../../src/extension/status/model.js';
import { NoticeDeduper, noticeForProblem, noticeForServer } from '../../../src/extension/status/notices.js';
import { connected, def, failed, held, snap } from './fixtures.js';

test('the status bar counts connected of the servers meant to run and warns on failures', () => {
  const v = statusView(
    [
      snap('a', connected),
      snap('b', failed('command-not-found', 'command not found: zzz\nmore')),
      snap('c', { kind: 'disabled', reason: 'config' }),
    ],
    [],
  );
  assert.equal(v.text, '$(plug) 1/2');
  assert.equal(v.warning, true);
  assert.match(v.tooltip, /1 of 2 servers connected/);
  assert.match(v.tooltip, /b: command not found: zzz/);
  assert.ok(!v.tooltip.includes('more'));
});

test('all connected: no warning; needs-auth and config errors warn; approval waits are listed but do not warn', () => {
  assert.equal(statusView([snap('a', connected)], []).warning, false);
  assert.equal(statusView([snap('a', { kind: 'needs-auth', message: 'x', at: 0 })], []).warning, true);
  const gated = statusView([held('p', 'not-approved')], []);
  assert.equal(gated.warning, false);
  assert.equal(gated.text, '$(plug) 0/1');
  assert.match(gated.tooltip, /p: waiting for your approval/);
  const broken = statusView(
    [],
    [
      {
        severity: 'error',
        code: 'invalid-json',
        message: 'Invalid JSON at line 3',
        file: '/w/.mcp.json',
        jsonPath: [],
      },
    ],
  );
  assert.equal(broken.warning, true);
  assert.match(broken.tooltip, /Invalid JSON at line 3/);
});

test('a spawn failure, needs-auth and policy denial are notices; other failures are not', () => {
  assert.equal(noticeForServer(snap('a', failed('command-not-found', 'command not found: x')))?.kind, 'spawn');
  assert.equal(noticeForServer(snap('a', failed('request-timeout', 'timed out'))), undefined);
  assert.equal(noticeForServer(snap('a', { kind: 'needs-auth', message: 'sign in', at: 0 }))?.kind, 'needs-auth');
  assert.equal(noticeForServer(snap('a', connected)), undefined);
  assert.equal(
    noticeForProblem({
      severity: 'error',
      code: 'policy-denied',
      message: 'denied',
      file: '/m.json',
      jsonPath: [],
      server: 'x',
    })?.kind,
    'policy-denied',
  );
  assert.equal(
    noticeForProblem({ severity: 'error', code: 'schema', message: 'x', file: '/m.json', jsonPath: [] }),
    undefined,
  );
});

test('a server failing the same way on every retry is reported once; a new error or a recovery re-arms it', () => {
  const d = new NoticeDeduper();
  const s = snap('a', failed('spawn-failed', 'spawn EACCES'), { definition: def('a') });
  const n = noticeForServer(s);
  assert.ok(d.take('a', n, 'failed'));
  for (let i = 0; i < 50; i++) {
    assert.equal(d.take('a', undefined, 'pending'), undefined);
    assert.equal(d.take('a', noticeForServer(s), 'failed'), undefined);
  }
  const other = noticeForServer(snap('a', failed('command-not-found', 'command not found: y')));
  assert.ok(d.take('a', other, 'failed'), 'a different error is news');
  d.take('a', undefined, 'connected');
  assert.ok(d.take('a', other, 'failed'), 'after connecting, the same error is news again');
  assert.ok(d.take('b', n, 'failed'), 'servers are independent');
});
