/** The entry fields this part adds: `toolTimeout` and the machine-to-machine / metadata-URL `oauth` fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateServerEntry } from '../../../src/core/config/schema.js';

test('toolTimeout is validated and carried into the config', () => {
  const loc = { file: 'f.json', jsonPath: ['mcpServers', 's'], name: 's', scope: 'project' as const };
  const ok = validateServerEntry({ command: 'node', toolTimeout: 1500 }, loc);
  assert.ok(ok.ok && ok.config.toolTimeout === 1500);
  const bad = validateServerEntry({ command: 'node', toolTimeout: -1 }, loc);
  assert.ok(!bad.ok && /toolTimeout.*positive number of milliseconds/.test(bad.problems[0].message));
});

test('client_credentials without a clientId is a config error at the oauth path; with one it is carried as written', () => {
  const loc = { file: 'f.json', jsonPath: ['mcpServers', 'm'], name: 'm', scope: 'project' as const };
  const bad = validateServerEntry(
    { url: 'https://x.example.com/mcp', oauth: { grantType: 'client_credentials' } },
    loc,
  );
  assert.ok(!bad.ok && /without "oauth.clientId"/.test(bad.problems[0].message));
  assert.deepEqual(!bad.ok && bad.problems[0].jsonPath, ['mcpServers', 'm', 'oauth']);
  const oauth = {
    grantType: 'client_credentials',
    clientId: 'c',
    tokenEndpointAuthMethod: 'private_key_jwt',
    signingAlgorithm: 'ES256',
    issuer: 'https://as.example.com',
    clientMetadataUrl: 'https://me.example.com/c.json',
  };
  const ok = validateServerEntry({ url: 'https://x.example.com/mcp', oauth }, loc);
  assert.ok(ok.ok && ok.config.type === 'http');
  assert.deepEqual(ok.ok && ok.config.type === 'http' && ok.config.oauth, oauth);
  const badUrl = validateServerEntry(
    { url: 'https://x.example.com/mcp', oauth: { clientMetadataUrl: 'http://me.example.com/c.json' } },
    loc,
  );
  assert.ok(!badUrl.ok && /clientMetadataUrl.*https/.test(badUrl.problems[0].message));
});
