import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CliError, EXIT } from '../../src/cli/errors.js';
import { AuthError } from '../../src/core/auth/errors.js';
import { ConfigEditError } from '../../src/core/config/edit.js';
import { DebugSetupError } from '../../src/core/dev/debug.js';
import { errorText, HostError, hintOf, McpHostError } from '../../src/core/errors.js';
import { RegistryError } from '../../src/core/registry/client.js';
import { UnsupportedInstallError } from '../../src/core/registry/install.js';

test('every error class of the code base has the one typed base', () => {
  for (const e of [
    new HostError('internal', 'x'),
    new CliError(EXIT.usage, 'x'),
    new AuthError('unsafe-url', 'x'),
    new ConfigEditError('not-found', 'x'),
    new RegistryError('timeout', 'x'),
    new UnsupportedInstallError('x'),
    new DebugSetupError('x'),
  ]) {
    assert.ok(e instanceof McpHostError, e.constructor.name);
  }
});

test('the hint is read from the type, not from any object that happens to have one', () => {
  assert.equal(hintOf(new HostError('command-not-found', 'no npx', 'Install Node.js')), 'Install Node.js');
  assert.equal(hintOf(new CliError(EXIT.usage, 'bad', 'Run --help')), 'Run --help');
  assert.equal(hintOf(Object.assign(new Error('plain'), { hint: 'from a server' })), undefined);
  assert.equal(hintOf({ hint: 'not an error' }), undefined);
  assert.equal(errorText(new HostError('spawn-failed', 'no', 'Check the path')), 'no — Check the path');
});
