import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appCallConsent, AppSessionTrust, isDestructive } from '../../../src/core/apps/call-consent.js';
import type { HostTool } from '../../../src/core/host-api.js';

type Tool = Pick<HostTool, 'annotations' | 'ui'>;
const appOnly = (annotations: HostTool['annotations']): Tool => ({ annotations, ui: { visibility: ['app'] } });

test('the PDF viewer case: an app-only tool without hints asks, may be trusted, then runs without asking for that panel only', () => {
  const poll = appOnly({});
  const panel = new AppSessionTrust();
  assert.deepEqual(appCallConsent(poll, panel), { kind: 'ask', mayTrust: true });
  panel.trust();
  assert.deepEqual(appCallConsent(poll, panel), { kind: 'run' });
  // Another panel (another session of the same app) starts untrusted.
  assert.deepEqual(appCallConsent(poll, new AppSessionTrust()), { kind: 'ask', mayTrust: true });
});

test('a tool that declares itself destructive asks every time, trusted app or not', () => {
  const panel = new AppSessionTrust();
  panel.trust();
  assert.deepEqual(appCallConsent(appOnly({ destructiveHint: true }), panel), { kind: 'ask', mayTrust: false });
});

test("a tool the model can also call is not covered by an app's trust", () => {
  const panel = new AppSessionTrust();
  panel.trust();
  for (const ui of [undefined, { visibility: ['model', 'app'] as ('model' | 'app')[] }])
    assert.deepEqual(appCallConsent({ annotations: {}, ui }, panel), { kind: 'ask', mayTrust: false });
});

test('read-only and explicitly non-destructive tools run without a question', () => {
  const panel = new AppSessionTrust();
  assert.deepEqual(appCallConsent({ annotations: { readOnlyHint: true } }, panel), { kind: 'run' });
  assert.deepEqual(appCallConsent(appOnly({ destructiveHint: false }), panel), { kind: 'run' });
  // readOnlyHint wins over a destructive hint, as the spec says.
  assert.equal(isDestructive({ annotations: { readOnlyHint: true, destructiveHint: true } }), false);
  assert.equal(isDestructive({ annotations: {} }), true);
});
