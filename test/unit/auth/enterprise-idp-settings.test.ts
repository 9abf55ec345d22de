/** Which company IdP is in force: the managed file's beats the user's setting, and settings hold no secret. */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { enterpriseIdpSettings } from '../../../src/core/auth/enterprise/settings.js';

test('managed enterpriseIdp wins over the setting; the first managed file that has one decides; a setting carries no secret', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-host-idp-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const system = join(dir, 'system.json');
  const mine = join(dir, 'mine.json');
  await writeFile(
    system,
    JSON.stringify({
      enterpriseIdp: { issuer: 'https://idp.corp.test', clientId: 'corp', clientSecret: 's3cret-value' },
    }),
  );
  await writeFile(mine, JSON.stringify({ enterpriseIdp: { issuer: 'https://evil.test', clientId: 'x' } }));
  const user = { issuer: 'https://idp.me.test', clientId: 'me', clientSecret: 'nope-secret' };

  const managed = await enterpriseIdpSettings([system, mine], user);
  assert.deepEqual(managed.settings, {
    issuer: 'https://idp.corp.test',
    clientId: 'corp',
    clientSecret: 's3cret-value',
  });
  assert.equal(managed.from, system);

  const personal = await enterpriseIdpSettings([join(dir, 'missing.json')], user);
  assert.deepEqual(personal.settings, { issuer: 'https://idp.me.test', clientId: 'me' });
  assert.match(personal.problems.join('\n'), /clientSecret" is ignored: secrets do not belong in settings/);

  // A broken managed entry does not fall through to the user's own IdP.
  await writeFile(system, JSON.stringify({ enterpriseIdp: { issuer: 'http://idp.corp.test', clientId: 'corp' } }));
  const broken = await enterpriseIdpSettings([system], user);
  assert.equal(broken.settings, undefined);
  assert.match(broken.problems[0]!, /needs "issuer" \(the identity provider's https:\/\/ URL\)/);
});
