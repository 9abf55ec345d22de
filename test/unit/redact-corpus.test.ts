/**
 * A corpus of secret shapes (issue 12, item 8): every line must lose its secret through
 * `redactString`, and ordinary text must come through unchanged. Add a row whenever a shape
 * leaks; never remove one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REDACTED, redactArgs, redactHeaders, redactString } from '../../src/core/redact.js';

/** [shape, text, the secret that must not survive]. */
const SECRETS: [string, string, string][] = [
  ['Authorization header, Bearer', 'Authorization: Bearer abc.def-ghi123', 'abc.def-ghi123'],
  ['lowercase bearer', 'authorization: bearer s3cr3tT0ken9', 's3cr3tT0ken9'],
  ['bearer alone in a sentence', 'sent bearer s3cr3tT0ken9 to upstream', 's3cr3tT0ken9'],
  ['authorization=bearer X', 'authorization=bearer s3cr3tT0ken9 next', 's3cr3tT0ken9'],
  ['Basic credentials', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
  ['Proxy-Authorization', 'Proxy-Authorization: Basic cHJveHk6cHc=', 'cHJveHk6cHc='],
  ['Authorization: token (GitHub style)', 'Authorization: token 0123456789abcdef0123', '0123456789abcdef0123'],
  ['Cookie header', 'cookie: session=s3cr3tc00kie; theme=dark', 's3cr3tc00kie'],
  ['Set-Cookie header', 'Set-Cookie: sid=abc123xyz; Path=/; HttpOnly', 'abc123xyz'],
  ['X-API-Key header', 'X-API-Key: k3y-v4lue-123', 'k3y-v4lue-123'],
  ['Ocp-Apim-Subscription-Key header', 'Ocp-Apim-Subscription-Key: 0a1b2c3d4e5f6a7b8c9d', '0a1b2c3d4e5f6a7b8c9d'],
  ['DD-APPLICATION-KEY header', 'DD-APPLICATION-KEY: ddappkey0123456789', 'ddappkey0123456789'],
  ['DD-API-KEY header', 'DD-API-KEY: ddapikey0123456789', 'ddapikey0123456789'],
  ['X-PAT header', 'X-PAT: pat0123456789abc', 'pat0123456789abc'],
  ['PRIVATE-TOKEN header (GitLab)', 'PRIVATE-TOKEN: gl0123456789abcdef', 'gl0123456789abcdef'],
  ['X-Auth-Token header', 'x-auth-token: tok0123456789', 'tok0123456789'],
  ['a second field on the same line', 'status: ok, password: hunter2hunter2', 'hunter2hunter2'],
  ['password: X', 'password: hunter2hunter2', 'hunter2hunter2'],
  ['password: "X"', 'password: "hunter2 with spaces"', 'hunter2 with spaces'],
  ["password: 'X'", "db_password: 'hunter2hunter2'", 'hunter2hunter2'],
  ['secret: X (YAML)', 'client_secret: cs0123456789', 'cs0123456789'],
  ['JSON field', '{"access_token":"at-0123456789","expires_in":3600}', 'at-0123456789'],
  ['JSON field with spaces', '{ "refresh_token" : "rt-0123456789" }', 'rt-0123456789'],
  ["Python dict {'api_key': 'X'}", "{'api_key': 'ak0123456789'}", 'ak0123456789'],
  ['password=X', 'password=hunter2hunter2 user=bob', 'hunter2hunter2'],
  ['PGPASSWORD=X', 'PGPASSWORD=pgS3cret!23 psql -h db', 'pgS3cret!23'],
  ['MYSQL_PWD=X', 'MYSQL_PWD=myS3cret123', 'myS3cret123'],
  [
    'aws_secret_access_key = X',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'wJalrXUtnFEMI/K7MDENG',
  ],
  ['AWS_SECRET_ACCESS_KEY=X', 'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'wJalrXUtnFEMI/K7MDENG'],
  ['double-quoted env value', 'GITHUB_TOKEN="tok en with spaces"', 'tok en with spaces'],
  ['single-quoted env value', "API_KEY='ak 0123456789'", 'ak 0123456789'],
  [
    'Azure connection string AccountKey',
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4==;EndpointSuffix=core.windows.net',
    'Zm9vYmFyYmF6cXV4==',
  ],
  ['URL user and password', 'connecting to https://bob:pw0123456@host.test/x', 'pw0123456'],
  ['URL password with @', 'fetch failed: https://bob:p@ssw0rd@host.test/mcp', 'p@ssw0rd'],
  ['URL password with /', 'could not reach http://user:pa/ssw0rd@host.test/mcp', 'pa/ssw0rd'],
  ['URL token as user', 'git clone https://ghs_tok3n0123456789@github.com/o/r', 'ghs_tok3n0123456789'],
  ['database URL', 'DATABASE_URL=postgres://app:dbS3cret99@db:5432/app', 'dbS3cret99'],
  ['query api_key', 'GET /v1/x?api_key=ak0123456789&page=2', 'ak0123456789'],
  ['query access_token', 'https://h.test/cb?access_token=at0123456789', 'at0123456789'],
  ['query client_secret', 'POST /token?client_secret=cs0123456789&grant_type=refresh_token', 'cs0123456789'],
  ['query sig (SAS)', 'https://acct.blob.core.windows.net/c?sv=2020&sig=SiGnAtUrE0123', 'SiGnAtUrE0123'],
  [
    'PEM private key',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0123456789\n-----END RSA PRIVATE KEY-----',
    'MIIEowIBAAKCAQEA0123456789',
  ],
  [
    'PEM OpenSSH key',
    'key: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
    'b3BlbnNzaC1rZXktdjEAAAAA',
  ],
  ['PEM key cut off', '-----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEF', 'MIIEvQIBADANBgkqhkiG9w0BAQEF'],
  ['-p X (mysql)', 'mysql -u root -p hunter2hunter2 app', 'hunter2hunter2'],
  ['--api-key VALUE', 'server --api-key ak0123456789 --verbose', 'ak0123456789'],
  ['--api-key=VALUE', 'server --api-key=ak0123456789', 'ak0123456789'],
  ['--password VALUE', 'run --password hunter2hunter2', 'hunter2hunter2'],
  ['--token=VALUE', 'run --token=t0k3n0123456', 't0k3n0123456'],
  ['--client-secret VALUE', 'run --client-secret cs0123456789', 'cs0123456789'],
  ['GitHub classic token', 'env ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
  [
    'GitHub fine-grained token',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
    'github_pat_11ABCDEFG0123456789',
  ],
  ['Anthropic key', 'key sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa', 'sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa'],
  ['OpenAI project key', 'using sk-proj-abcdefghijklmnop0123456789', 'sk-proj-abcdefghijklmnop0123456789'],
  ['Stripe live key', 'stripe sk_live_abcdefghijklmnop012345', 'sk_live_abcdefghijklmnop012345'],
  ['Slack bot token', 'slack xoxb-1234567890-abcdefghij', 'xoxb-1234567890-abcdefghij'],
  ['Slack webhook', 'posting to https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX', 'XXXXXXXXXXXXXXXX'],
  ['AWS access key id', 'aws AKIAABCDEFGHIJKLMNOP', 'AKIAABCDEFGHIJKLMNOP'],
  ['AWS session key id', 'aws ASIAABCDEFGHIJKLMNOP', 'ASIAABCDEFGHIJKLMNOP'],
  ['Google API key', 'AIzaSyA0123456789abcdefghijklmnopqrstu', 'AIzaSyA0123456789abcdefghijklmnopqrstu'],
  ['Google OAuth token', 'ya29.a0AfH6SMB0123456789abcdefghij', 'ya29.a0AfH6SMB0123456789abcdefghij'],
  ['GitLab token', 'glpat-abcdefghij0123456789', 'glpat-abcdefghij0123456789'],
  ['npm token', 'npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['Hugging Face token', 'hf_abcdefghijklmnopqrstuvwxyz0123456789', 'hf_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['SendGrid key', 'SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123', 'SG.abcdefghijklmnopqrstuv'],
  ['JWT', 'id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
];

test(`redaction corpus: ${SECRETS.length} secret shapes are all redacted`, () => {
  const leaks: string[] = [];
  for (const [shape, text, secret] of SECRETS) {
    const out = redactString(text);
    if (out.includes(secret) || !out.includes(REDACTED))
      leaks.push(`${shape}: ${JSON.stringify(text)} → ${JSON.stringify(out)}`);
  }
  assert.deepEqual(leaks, [], `${leaks.length} of ${SECRETS.length} shapes leaked:\n${leaks.join('\n')}`);
  assert.ok(SECRETS.length >= 60);
});

/** Ordinary lines that must come through unchanged (over-redaction makes logs useless). */
const PLAIN = [
  'server "github" connected in 120 ms; 12 tools; user=bob state=ready',
  'expires_in=3600 grant_type=authorization_code',
  'listening on http://127.0.0.1:3000/mcp',
  'npx -y @modelcontextprotocol/server-everything -p 8080',
  'GET https://registry.npmjs.org/@modelcontextprotocol/sdk',
  'the basic idea is a token of thanks',
  'Error: connect ECONNREFUSED 127.0.0.1:443',
  'mcp-host: environment variable EVERYTHING_TOKEN is secret: its value is not written',
];

test('redaction corpus: ordinary text is left alone', () => {
  for (const line of PLAIN) assert.equal(redactString(line), line);
});

test('redaction corpus: header names that carry credentials', () => {
  const names = [
    'Authorization',
    'Ocp-Apim-Subscription-Key',
    'DD-APPLICATION-KEY',
    'DD-API-KEY',
    'X-PAT',
    'PRIVATE-TOKEN',
    'X-Goog-Api-Key',
    'Cookie',
  ];
  const redacted = redactHeaders(Object.fromEntries(names.map((n) => [n, 'v4lue0123456'])))!;
  for (const n of names) assert.ok(!redacted[n]!.includes('v4lue0123456'), `${n} kept its value`);
  assert.deepEqual(redactHeaders({ Accept: 'application/json', 'X-Trace-Id': 'abc' }), {
    Accept: 'application/json',
    'X-Trace-Id': 'abc',
  });
});

test('redaction corpus: -p takes a password unless it is a port', () => {
  assert.deepEqual(redactArgs(['-u', 'root', '-p', 'hunter2hunter2']), ['-u', 'root', '-p', REDACTED]);
  assert.deepEqual(redactArgs(['serve', '-p', '8080']), ['serve', '-p', '8080']);
});
