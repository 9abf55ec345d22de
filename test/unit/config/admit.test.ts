/** Admission: the one pure function that decides whether a loaded server runs, and why not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionOf, admit, awaitingApproval, heldReason, runs } from '../../../src/core/config/admit.js';
import type { Policy } from '../../../src/core/config/policy.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { ServerApprovals } from '../../../src/core/config/approvals.js';
import { def } from '../extension/fixtures.js';

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, update: async (k, v) => void m.set(k, v) };
}

const user = (name: string): ServerDefinition => def(name, { scope: 'user', file: 'settings:mcpHost.servers' });

test('project servers wait for approval, user servers run; approving lifts it; a changed definition asks again', async () => {
  const approvals = new ServerApprovals(memory());
  const proj = { ...def('proj'), approvalHash: 'a1' };
  const first = admit([proj, user('mine')], { trusted: true, approvals });
  let p = first[0];
  const u = first[1];
  assert.deepEqual(u.admission, { run: true });
  assert.equal(heldReason(p), 'not-approved');
  assert.equal(runs(p), false);
  assert.deepEqual(
    awaitingApproval([p, u]).map((d) => d.name),
    ['proj'],
  );
  assert.equal(p.config, proj.config, 'admission never rewrites the config');

  await approvals.approve([proj]);
  [p] = admit([proj], { trusted: true, approvals });
  assert.deepEqual(p.admission, { run: true });

  [p] = admit([{ ...proj, approvalHash: 'a2' }], { trusted: true, approvals });
  assert.equal(heldReason(p), 'not-approved');
  assert.match(p.admission!.run ? '' : p.admission!.message, /changed since you approved it/);
  assert.equal(awaitingApproval([p]).length, 1);
});

test('a denied server stays held without being asked about again', async () => {
  const approvals = new ServerApprovals(memory());
  const proj = def('proj');
  await approvals.deny([proj]);
  const [p] = admit([proj], { trusted: true, approvals });
  assert.equal(heldReason(p), 'not-approved');
  assert.deepEqual(awaitingApproval([p]), []);
});

test('an untrusted workspace holds workspace and project servers, never user ones, and asks nothing', () => {
  const out = admit([def('p'), def('w', { scope: 'workspace', file: '/w/.vscode/mcp.json' }), user('u')], {
    trusted: false,
    approvals: new ServerApprovals(memory()),
  });
  assert.deepEqual(out.map(heldReason), ['untrusted', 'untrusted', undefined]);
  assert.deepEqual(awaitingApproval(out), []);
});

test('reasons in order: config, policy, user-disabled, trust/approval, manual start', () => {
  const policy: Policy = { file: '/etc/m.json', denied: [{ serverName: 'bad' }] };
  const off = { ...user('off'), config: { type: 'stdio' as const, command: 'x', args: [], disabled: true } };
  const ctx = {
    trusted: false,
    policy,
    userDisabled: new Set(['bad', 'mine', 'p']),
    manualStart: new Set(['m', 'off', 'p']),
  };
  assert.equal(heldReason({ ...off, admission: admissionOf(off, ctx) }), 'config');
  const bad = user('bad');
  const a = admissionOf(bad, ctx);
  assert.ok(!a.run && a.reason === 'policy');
  assert.match(
    a.message,
    /Server "bad" is blocked by the policy in \/etc\/m\.json: it matches the deny rule serverName "bad"/,
  );
  assert.equal(heldReason({ ...user('mine'), admission: admissionOf(user('mine'), ctx) }), 'user-disabled');
  assert.equal(heldReason({ ...def('p'), admission: admissionOf(def('p'), ctx) }), 'user-disabled');
  assert.equal(heldReason({ ...user('m'), admission: admissionOf(user('m'), ctx) }), 'manual');
  assert.deepEqual(admissionOf(user('free'), ctx), { run: true });
});

test('without approvals (the CLI) a trusted folder runs its own servers, but the policy still applies', () => {
  const policy: Policy = { file: '/m.json', denied: [{ serverCommand: ['node', 'p.js'] }] };
  const out = admit([def('p'), def('q')], { trusted: true, policy });
  assert.deepEqual(out.map(heldReason), ['policy', undefined]);
});

test('a definition never admitted runs unless its config says disabled', () => {
  assert.equal(runs(user('a')), true);
  assert.equal(runs({ ...user('a'), config: { type: 'stdio', command: 'x', args: [], disabled: true } }), false);
  assert.equal(heldReason(undefined), undefined);
});
