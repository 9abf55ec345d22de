import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayToolsVersion } from '../../../src/extension/gateway/tools-version.js';
import { connected, snap, tool } from './fixtures.js';

test('the gateway definition’s version changes with the tools it offers, and only then', () => {
  const one = [snap('everything', connected, { tools: [tool('everything', 'echo')] })];
  const same = [snap('everything', connected, { tools: [tool('everything', 'echo')] })];
  const two = [snap('everything', connected, { tools: [tool('everything', 'echo'), tool('everything', 'add')] })];
  const v1 = gatewayToolsVersion('0.1.0', one, {});
  assert.match(v1, /^0\.1\.0\+tools\.[0-9a-f]{12}$/);
  assert.equal(gatewayToolsVersion('0.1.0', same, {}), v1);
  assert.notEqual(gatewayToolsVersion('0.1.0', two, {}), v1);
  assert.notEqual(gatewayToolsVersion('0.1.0', one, { isServerExposed: () => false }), v1);
  assert.notEqual(gatewayToolsVersion('0.1.0', one, { isToolEnabled: () => false }), v1);
});
