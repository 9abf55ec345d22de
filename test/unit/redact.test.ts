/** Redaction of secrets for logs and tooltips. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  REDACTED,
  redactArgs,
  redactConfig,
  redactHeaders,
  redactString,
  redactUrl,
  redactValue,
} from '../../src/core/redact.js';

test('redactUrl: credentials and secret query values go, the rest stays readable', () => {
  assert.equal(
    redactUrl('https://user:hunter2@api.test/mcp?token=abc&page=2&api_key=k#frag'),
    `https://${REDACTED}:${REDACTED}@api.test/mcp?token=${REDACTED}&page=2&api_key=${REDACTED}#frag`,
  );
  assert.equal(redactUrl('https://api.test/mcp'), 'https://api.test/mcp');
  assert.equal(
    redactUrl('http://127.0.0.1:3000/cb?code=xyz&state=s1'),
    `http://127.0.0.1:3000/cb?code=${REDACTED}&state=s1`,
  );
  assert.doesNotMatch(redactUrl('not a url with token=abc'), /abc/);
});

test('redactHeaders: Authorization keeps its scheme, Cookie/X-API-Key/*token* hidden, others kept', () => {
  assert.deepEqual(
    redactHeaders({
      Authorization: 'Bearer eyJabc.def.ghi',
      Cookie: 'sid=1; other=2',
      'X-API-Key': 'k',
      'X-Goog-Api-Key': 'g',
      'X-Custom-Token': 't',
      Accept: 'application/json',
      'X-Trace': 'abc',
    }),
    {
      Authorization: `Bearer ${REDACTED}`,
      Cookie: REDACTED,
      'X-API-Key': REDACTED,
      'X-Goog-Api-Key': REDACTED,
      'X-Custom-Token': REDACTED,
      Accept: 'application/json',
      'X-Trace': 'abc',
    },
  );
  assert.equal(redactHeaders(undefined), undefined);
});

test('redactString: bearer tokens, header lines, key=value, JSON fields, flags, URL credentials, known token formats', () => {
  const cases: [string, string[]][] = [
    ['GET / Authorization: Bearer abc.def-ghi', ['abc.def-ghi']],
    ['authorization: Basic dXNlcjpwYXNz', ['dXNlcjpwYXNz']],
    ['cookie: session=s3cr3t; theme=dark', ['s3cr3t']],
    ['connecting to https://bob:pw123@host.test/x', ['pw123', 'bob']],
    ['POST /token?client_secret=cs1&grant_type=refresh_token', ['cs1']],
    ['{"access_token":"at-1","refresh_token": "rt-1","expires_in":3600}', ['at-1', 'rt-1']],
    ['password=hunter2 user=bob', ['hunter2']],
    ['started with --api-key sk-ant-api03-aaaaaaaaaaaaaaaaaaaa and --token=t0k', ['sk-ant-api03', 't0k']],
    ['env GITHUB_TOKEN ghp_abcdefghijklmnopqrstuvwxyz0123456789', ['ghp_abcdefghijklmnopqrstuvwxyz0123456789']],
    ['slack xoxb-1234567890-abcdefghij aws AKIAABCDEFGHIJKLMNOP', ['xoxb-1234567890', 'AKIAABCDEFGHIJKLMNOP']],
  ];
  for (const [input, secrets] of cases) {
    const out = redactString(input);
    for (const s of secrets)
      assert.ok(!out.includes(s), `${JSON.stringify(input)} → ${JSON.stringify(out)} still contains ${s}`);
    assert.ok(out.includes(REDACTED), `${JSON.stringify(out)} marks the redaction`);
  }
  // Ordinary text is left alone.
  const plain = 'server "github" connected in 120 ms; 12 tools; user=bob state=ready';
  assert.equal(redactString(plain), plain);
  assert.equal(
    redactString('expires_in=3600 grant_type=authorization_code'),
    'expires_in=3600 grant_type=authorization_code',
  );
});

test('redactArgs: the value after a secret flag and inline secrets', () => {
  assert.deepEqual(redactArgs(['-y', 'pkg', '--token', 'abc', '--port', '3000', '--api-key=xyz', '--verbose']), [
    '-y',
    'pkg',
    '--token',
    REDACTED,
    '--port',
    '3000',
    `--api-key=${REDACTED}`,
    '--verbose',
  ]);
});

test('redactConfig: every env value hidden (names kept), headers and URL redacted, input untouched', () => {
  const stdio = {
    type: 'stdio' as const,
    command: 'npx',
    args: ['-y', 'srv', '--password', 'pw'],
    env: { GITHUB_TOKEN: 'ghp_x', LOG_LEVEL: 'debug' },
  };
  const r = redactConfig(stdio);
  assert.deepEqual(r, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', 'srv', '--password', REDACTED],
    env: { GITHUB_TOKEN: REDACTED, LOG_LEVEL: REDACTED },
  });
  assert.equal(stdio.env.GITHUB_TOKEN, 'ghp_x', 'not mutated');
  const remote = redactConfig({
    type: 'http' as const,
    url: 'https://u:p@x.test/mcp?key=1',
    headers: { Authorization: 'Bearer t' },
    oauth: { clientId: 'public-id' },
  });
  assert.deepEqual(remote, {
    type: 'http',
    url: `https://${REDACTED}:${REDACTED}@x.test/mcp?key=${REDACTED}`,
    headers: { Authorization: `Bearer ${REDACTED}` },
    oauth: { clientId: 'public-id' },
  });
});

test('redactValue: deep objects for logging', () => {
  const v = redactValue({
    server: 's',
    env: { A: '1' },
    headers: { 'x-api-key': 'k', accept: 'a' },
    nested: [{ client_secret: 'cs', note: 'Bearer zzz' }],
    count: 3,
  });
  assert.deepEqual(v, {
    server: 's',
    env: { A: REDACTED },
    headers: { 'x-api-key': REDACTED, accept: 'a' },
    nested: [{ client_secret: REDACTED, note: `Bearer ${REDACTED}` }],
    count: 3,
  });
});

test('redactString: an error code under `code` is no secret; an authorization code still is', () => {
  // Node's dump of a failed require, as a server's stderr shows it.
  assert.equal(redactString("  code: 'MODULE_NOT_FOUND',"), "  code: 'MODULE_NOT_FOUND',");
  assert.equal(redactString('{"code": "ERR_REQUIRE_ESM"}'), '{"code": "ERR_REQUIRE_ESM"}');
  assert.equal(redactString("code: 'ENOENT'"), "code: 'ENOENT'");
  assert.equal(redactString('connect failed code=ECONNREFUSED port=80'), 'connect failed code=ECONNREFUSED port=80');
  assert.equal(redactString("code: 'SplxlOBeZQQYbYS6WxSbIA'"), `code: '${REDACTED}'`);
  assert.equal(redactString('code=4/0AX4XfWh7Qz'), `code=${REDACTED}`);
  assert.equal(redactString('"code": "ABC123XYZ"'), `"code": "${REDACTED}"`);
  assert.equal(redactString("token: 'MODULE_NOT_FOUND'"), `token: '${REDACTED}'`);
});

test('redactString twice is redactString once: an already redacted value is not redacted again', () => {
  // The approval prompt's summary is redacted, then the CLI's output redacts it again.
  const once = redactString('environment: LEAKY_API_KEY=plainsecretvalue987, MODE=fast');
  assert.equal(once, 'environment: LEAKY_API_KEY=[redacted], MODE=fast');
  assert.equal(redactString(once), once);
});

test('redactString: a `key=value` inside brackets keeps the closing bracket, and is still redacted', () => {
  // The stderr summary writes `(code=…)`; the bracket used to be swallowed with the value.
  assert.equal(redactString('sign-in failed (code=SplxlOBeZQQYbYS6WxSbIA)'), `sign-in failed (code=${REDACTED})`);
  assert.equal(redactString('failed (token=abcDEF123xyz) next'), `failed (token=${REDACTED}) next`);
  assert.equal(redactString('refused [token=abc123def456]'), `refused [token=${REDACTED}]`);
  assert.equal(redactString('exit (code=ENOENT)'), 'exit (code=ENOENT)');
  const once = redactString('x (api_key=abc123def456ghi)');
  assert.equal(redactString(once), once);
});
