import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyGates, keepLastGood } from '../../../src/extension/config/gate.js';
import { ServerApprovals } from '../../../src/core/trust.js';
import type { KeyValueStore } from '../../../src/core/ports.js';
import { def } from './fixtures.js';

function memory(): KeyValueStore {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, update: async (k, v) => void m.set(k, v) };
}

test('project servers wait for approval; user servers start; approval by hash lifts the gate', async () => {
  const approvals = new ServerApprovals(memory());
  const proj = def('proj');
  const user = def('mine', { scope: 'user', file: 'settings:mcpHost.servers' });
  let r = applyGates({ defs: [proj, user], trusted: true, approvals, userDisabled: new Set() });
  assert.equal(r.gates.get('proj'), 'not-approved');
  assert.equal(r.gates.has('mine'), false);
  assert.deepEqual(r.awaitingApproval.map((d) => d.name), ['proj']);
  const held = r.forHost.find((d) => d.name === 'proj')!;
  assert.equal(held.config.disabled, true);
  assert.notEqual(held.hash, proj.hash, 'a held server has its own hash so lifting the gate restarts it');
  assert.equal(r.forHost.find((d) => d.name === 'mine'), user);

  await approvals.approve([proj]);
  r = applyGates({ defs: [proj, user], trusted: true, approvals, userDisabled: new Set() });
  assert.equal(r.gates.size, 0);
  assert.equal(r.forHost[0], proj);

  const changed = { ...proj, hash: 'h-other', approvalHash: 'a-other' };
  r = applyGates({ defs: [changed], trusted: true, approvals, userDisabled: new Set() });
  assert.equal(r.gates.get('proj'), 'not-approved', 'a changed definition needs approval again');
  assert.equal(r.awaitingApproval.length, 1);
});

test('denied servers stay held but are not asked about again', async () => {
  const approvals = new ServerApprovals(memory());
  const proj = def('proj');
  await approvals.deny([proj]);
  const r = applyGates({ defs: [proj], trusted: true, approvals, userDisabled: new Set() });
  assert.equal(r.gates.get('proj'), 'not-approved');
  assert.equal(r.awaitingApproval.length, 0);
});

test('an untrusted workspace holds workspace and project servers, never user ones, and asks nothing', () => {
  const approvals = new ServerApprovals(memory());
  const r = applyGates({
    defs: [def('p'), def('w', { scope: 'workspace', file: '/w/.vscode/mcp.json' }), def('u', { scope: 'user' })],
    trusted: false,
    approvals,
    userDisabled: new Set(),
  });
  assert.deepEqual([...r.gates], [['p', 'untrusted'], ['w', 'untrusted']]);
  assert.equal(r.awaitingApproval.length, 0);
});

test('the per-workspace disabled list holds a server of any scope', () => {
  const r = applyGates({ defs: [def('m', { scope: 'managed' })], trusted: true, approvals: new ServerApprovals(memory()), userDisabled: new Set(['m']) });
  assert.equal(r.gates.get('m'), 'user-disabled');
  assert.equal(r.forHost[0].config.disabled, true);
});

test('servers of a file that turned invalid keep running from the last good load', () => {
  const a = def('a');
  const b = def('b');
  const other = def('o', { file: '/w/.vscode/mcp.json', scope: 'workspace' });
  const kept = keepLastGood([a, b, other], {
    servers: [],
    problems: [{ severity: 'error', code: 'invalid-json', message: 'bad', file: '/w/.mcp.json', jsonPath: [] }],
  });
  assert.deepEqual(kept.map((d) => d.name), ['a', 'b'], 'the other file was read fine and has no servers now');
});

test('one invalid entry keeps its last good version; a removed entry goes', () => {
  const a = def('a');
  const b = def('b');
  const a2 = { ...a, hash: 'new' };
  const kept = keepLastGood([a, b], {
    servers: [a2],
    problems: [{ severity: 'error', code: 'schema', message: 'x', file: '/w/.mcp.json', jsonPath: ['mcpServers', 'b', 'args'], server: 'b' }],
  });
  assert.deepEqual(kept, [a2, b]);
  assert.deepEqual(keepLastGood([a, b], { servers: [a2], problems: [] }), [a2]);
});

test('servers the loader already held back (disabledBy) are mapped to gates and passed through as they are', () => {
  const approvals = new ServerApprovals(memory());
  const loaderHeld = {
    ...def('p'),
    config: { type: 'stdio' as const, command: 'node', args: ['p.js'], disabled: true },
    hash: 'gated-hash',
    approvalHash: 'a-p',
    disabledBy: { reason: 'not-approved' as const, message: 'approve it' },
  };
  const configDisabled = { ...def('c'), config: { type: 'stdio' as const, command: 'x', args: [], disabled: true }, disabledBy: { reason: 'config' as const, message: 'off' } };
  const r = applyGates({ defs: [loaderHeld, configDisabled], trusted: true, approvals, userDisabled: new Set() });
  assert.equal(r.gates.get('p'), 'not-approved');
  assert.equal(r.gates.has('c'), false, 'disabled in its own config is not a gate');
  assert.equal(r.forHost[0], loaderHeld);
  assert.deepEqual(r.awaitingApproval, [loaderHeld]);
});

test('with autoStart off, servers wait for an explicit start; config-disabled ones stay plainly disabled', () => {
  const approvals = new ServerApprovals(memory());
  const user = def('u', { scope: 'user' });
  const off = { ...def('off', { scope: 'user' }), config: { type: 'stdio' as const, command: 'x', args: [], disabled: true } };
  const r = applyGates({ defs: [user, off], trusted: true, approvals, userDisabled: new Set(), manual: new Set(['u', 'off']) });
  assert.equal(r.gates.get('u'), 'manual');
  assert.equal(r.forHost[0].config.disabled, true);
  assert.equal(r.gates.has('off'), false);
  const started = applyGates({ defs: [user], trusted: true, approvals, userDisabled: new Set(), manual: new Set() });
  assert.equal(started.forHost[0], user);
});
