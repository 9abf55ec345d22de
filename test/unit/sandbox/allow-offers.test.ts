/** "Allow in Sandbox" offers only concrete hosts and paths the sandbox refused (issue 41, item 8). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowChoice, concreteHost, hostOf } from '../../../src/core/sandbox/allow.js';
import { parseViolation } from '../../../src/core/sandbox/runtime.js';
import { stderrWriteBlock } from '../../../src/core/sandbox/spawn.js';
import type { SandboxPlan } from '../../../src/core/config/sandbox-settings.js';

const net = (target: string) => allowChoice({ server: 's', kind: 'network', target, line: '' }, undefined);
const file = (target: string, ctx = {}) => allowChoice({ server: 's', kind: 'file', target, line: '' }, undefined, ctx);

test('hostile network targets are never offered', () => {
  for (const t of [
    '*:443',
    '*',
    '*.example.com:443',
    '"*":443',
    'a..b:443',
    'evil.com:0',
    'evil.com:99999',
    'evil.com:443:1',
    '-x.com:443',
    'x_y.com:443',
    '999.1.1.1:80',
    '[nothost]:80',
    'a b.com:80',
    'a.com\n:80',
    '',
  ])
    assert.equal(net(t), undefined, JSON.stringify(t));
  assert.equal(net('API.X.dev.:443')?.label, 'Allow network access to api.x.dev');
  assert.equal(hostOf('[::1]:80'), '::1');
  assert.equal(concreteHost('127.0.0.1'), '127.0.0.1');
});

test('hostile paths are never offered, `/` never, and a folder above the workspace says so', () => {
  for (const t of [
    '/x',
    '/',
    'relative/x',
    '/a/../etc/x',
    '/a/*/x',
    '/a/b?/x',
    '/a/[b]/x',
    '/a/{b}/x',
    '/a\n/x',
    '/a//x',
  ])
    assert.equal(file(t), undefined, JSON.stringify(t));
  assert.equal(file('/data/out/x.txt')?.label, 'Allow writing in /data/out');
  const ctx = { folders: ['/home/u/ws'], home: '/home/u' };
  assert.match(file('/home/u/x.txt', ctx)!.label, /\/home\/u \(above the workspace/);
  assert.match(file('/home/x.txt', ctx)!.label, /above the workspace/);
  assert.equal(
    allowChoice({ server: 's', kind: 'network', target: 'a.dev:443', line: '', offer: false }, undefined),
    undefined,
  );
});

test('the parsers mark what no rule could allow, and drop what is not a path', () => {
  assert.equal(parseViolation('s', 'deny network-outbound *:443').offer, false);
  assert.equal(parseViolation('s', 'deny network-outbound api.x.dev:443').offer, undefined);
  assert.equal(parseViolation('s', 'deny file-write-create /a/../../x').offer, false);
  const plan: SandboxPlan = {
    filesystem: { allowWrite: ['/ws'], denyWrite: [], denyRead: [] },
    network: { allowedDomains: [], deniedDomains: [] },
    by: 'config',
  };
  assert.equal(stderrWriteBlock('s', plan, 'relative', 'EROFS'), undefined);
  // A "refused" write inside the workspace is not something a rule would change: logged, not offered.
  assert.equal(stderrWriteBlock('s', plan, '/ws/x', 'EROFS')?.offer, false);
  assert.equal(stderrWriteBlock('s', plan, '/out/x', 'EROFS')?.offer, undefined);
});
