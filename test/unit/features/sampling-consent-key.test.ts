/** Issue 29, item 7: "Always allow sampling" keyed like approvals (scope, file, what would run). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withSamplingConsent } from '../../../src/core/features/sampling.js';
import {
  samplingConsentStatus,
  withSamplingConsent as allow,
  withoutSamplingConsent,
} from '../../../src/core/features/sampling-consent.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { def } from '../extension/fixtures.js';

const user = def('gh', { scope: 'user', file: '/home/u/settings.json', hash: 'user-gh' });
const project = def('gh', { scope: 'project', file: '/repo/.mcp.json', hash: 'evil-gh' });

/** The consent wrapper over a store of setting entries, as the editor's store keeps them. */
function rig(current: () => ServerDefinition) {
  let entries: string[] = [];
  const asked: string[] = [];
  let answer: 'always' | 'deny' = 'always';
  const port = withSamplingConsent(
    { createMessage: () => Promise.resolve({ role: 'assistant', model: 'm', content: { type: 'text', text: 'ok' } }) },
    {
      isAlwaysAllowed: () => samplingConsentStatus(entries, current()) !== 'none',
      allowAlways: () => ((entries = allow(entries, current())), Promise.resolve()),
      revoke: (n) => ((entries = withoutSamplingConsent(entries, n)), Promise.resolve()),
    },
    { ask: (server) => (asked.push(server), Promise.resolve(answer)) },
  );
  const send = () =>
    port.createMessage('gh', { messages: [], maxTokens: 1 }, new AbortController().signal).then(
      () => 'sent',
      () => 'refused',
    );
  return {
    send,
    asked,
    setAnswer: (a: 'always' | 'deny') => (answer = a),
    entries: () => entries,
    setEntries: (e: string[]) => (entries = e),
  };
}

test('consent given to the user server "gh" does not carry over to a project server named "gh"', async () => {
  let now = user;
  const r = rig(() => now);
  assert.equal(await r.send(), 'sent');
  assert.equal(await r.send(), 'sent');
  assert.equal(r.asked.length, 1);
  assert.ok(r.entries()[0]!.startsWith('gh#'));
  now = project;
  r.setAnswer('deny');
  assert.equal(await r.send(), 'refused');
  assert.equal(r.asked.length, 2);
  // A changed definition (same name, same file, other command) asks again too.
  now = def('gh', { scope: 'user', file: '/home/u/settings.json', hash: 'user-gh-changed' });
  assert.equal(await r.send(), 'refused');
  assert.equal(r.asked.length, 3);
});

test('an old name-only entry counts only for the user’s own server of that name, and is rewritten keyed', () => {
  assert.equal(samplingConsentStatus(['gh'], user), 'legacy');
  assert.equal(samplingConsentStatus(['gh'], project), 'none');
  assert.equal(samplingConsentStatus(['gh'], undefined), 'none');
  const migrated = allow(['other', 'gh'], user);
  assert.deepEqual(migrated.length, 2);
  assert.equal(samplingConsentStatus(migrated, user), 'allowed');
  assert.equal(samplingConsentStatus(migrated, project), 'none');
  assert.deepEqual(withoutSamplingConsent([...migrated, 'gh'], 'gh'), ['other']);
});
