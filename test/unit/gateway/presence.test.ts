import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentPresence, agentIdentity } from '../../../src/core/gateway/presence.js';

test('held agents count while held; stateless ones for the idle window after their last request', () => {
  let now = 1_000;
  const p = new AgentPresence(500, () => now);
  let fired = 0;
  p.onDidChange(() => fired++);
  const session = p.hold('session:1');
  assert.equal(p.count(), 1);
  const ada = agentIdentity({ name: 'ada', version: '1' }, {});
  p.touch(ada);
  p.touch(ada);
  // Another client, or the same client at another endpoint, is another agent.
  p.touch(agentIdentity({ name: 'bob', version: '1' }, {}));
  p.touch(agentIdentity({ name: 'ada', version: '1' }, { profile: 'ro' }));
  assert.equal(p.count(), 4);
  const listen = p.hold(ada);
  now += 600;
  // Past the window: only the held ones (the session, and ada's open listen stream).
  assert.equal(p.count(), 2);
  listen.dispose();
  listen.dispose();
  session.dispose();
  assert.equal(p.count(), 0);
  assert.ok(fired >= 2);
  p.dispose();
});
