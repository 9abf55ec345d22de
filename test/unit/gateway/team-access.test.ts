// The team gateway's settings and who gets which profile (service/config.ts, service/caller-view.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServiceConfig } from '../../../src/core/gateway/service/config.js';
import { callerView } from '../../../src/core/gateway/service/caller-view.js';
import { parseProfiles } from '../../../src/core/gateway/profiles.js';
import type { Caller } from '../../../src/core/gateway/service/tokens.js';

const person = (sub: string, groups: string[] = []): Caller => ({ sub, groups, scopes: [] });

describe('team gateway settings', () => {
  test('auth with defaults; later files win; profiles merge by name', () => {
    const { config, problems } = parseServiceConfig([
      { file: 'a.json', value: { auth: { issuer: 'https://idp.example.com' }, profiles: { eng: { groups: ['e'] } } } },
      {
        file: 'b.json',
        value: {
          profiles: { ops: { users: ['bob'] } },
          drainSeconds: 5,
          drainGraceSeconds: 0.5,
          auditLog: '/var/log/gw.jsonl',
        },
      },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(config.auth, {
      issuer: 'https://idp.example.com',
      requiredScopes: [],
      groupsClaim: 'groups',
      clockToleranceS: 30,
    });
    assert.deepEqual(Object.keys(config.profiles), ['eng', 'ops']);
    assert.equal(config.drainMs, 5000);
    assert.equal(config.drainGraceMs, 500);
    assert.equal(config.auditLog, '/var/log/gw.jsonl');
  });

  test('a bad object is a problem naming the file and key, and leaves auth unset', () => {
    const { config, problems } = parseServiceConfig([{ file: 'a.json', value: { auth: { issuer: 'not a url' } } }]);
    assert.equal(config.auth, undefined);
    assert.match(problems[0] ?? '', /^a\.json: gateway\.auth\.issuer/);
    assert.match(parseServiceConfig([{ file: 'a.json', value: { nope: 1 } }]).problems[0] ?? '', /a\.json/);
  });

  test('telemetry: an OTLP/HTTP endpoint and a service name, later files winning per key', () => {
    const { config, problems } = parseServiceConfig([
      { file: 'a.json', value: { telemetry: { otlpEndpoint: 'http://127.0.0.1:4318', serviceName: 'gw' } } },
      { file: 'b.json', value: { telemetry: { otlpEndpoint: 'https://otel.example.com' } } },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(config.telemetry, { otlpEndpoint: 'https://otel.example.com', serviceName: 'gw' });
    const bad = parseServiceConfig([{ file: 'c.json', value: { telemetry: { otlpEndpoint: 'grpc://x:4317' } } }]);
    assert.match(bad.problems[0] ?? '', /^c\.json: gateway\.telemetry\.otlpEndpoint/);
    assert.equal(bad.config.telemetry, undefined);
    assert.equal(parseServiceConfig([{ file: 'd.json', value: {} }]).config.telemetry, undefined, 'off by default');
  });

  test('profiles take users and groups; older profiles parse as before', () => {
    const { profiles, problems } = parseProfiles({ a: { servers: ['x'] }, b: { users: ['u'], groups: ['g'] } });
    assert.deepEqual(problems, []);
    assert.deepEqual(profiles, { a: { servers: ['x'] }, b: { users: ['u'], groups: ['g'] } });
    assert.equal(parseProfiles({ c: { groups: 'g' } }).problems.length, 1);
  });
});

describe('who gets which profile', () => {
  const profiles = {
    eng: { servers: ['gh'], groups: ['engineering'] },
    admin: { users: ['alice'] },
    everyone: { servers: ['docs'] },
  };
  const at = (url: string, c: Caller) => callerView(url, {}, profiles, c);

  test('/mcp: the first profile naming the person, else the first open to anyone', () => {
    assert.deepEqual(at('/mcp', person('bob', ['engineering'])), { ok: true, view: { profile: 'eng' } });
    assert.deepEqual(at('/mcp', person('alice')), { ok: true, view: { profile: 'admin' } });
    assert.deepEqual(at('/mcp', person('carol')), { ok: true, view: { profile: 'everyone' } });
  });

  test('/mcp/<profile>: that profile only when it admits the person', () => {
    assert.deepEqual(at('/mcp/eng', person('bob', ['engineering'])), { ok: true, view: { profile: 'eng' } });
    assert.equal((at('/mcp/eng', person('carol')) as { status: number }).status, 403);
    assert.equal((at('/mcp/admin', person('bob', ['engineering'])) as { status: number }).status, 403);
    assert.deepEqual(at('/mcp/everyone', person('carol')), { ok: true, view: { profile: 'everyone' } });
    assert.equal((at('/mcp/nope', person('alice')) as { status: number }).status, 404);
  });

  test('no profile for the person: 403; no profiles at all: the whole gateway', () => {
    const closed = { eng: { groups: ['engineering'] } };
    assert.equal((callerView('/mcp', {}, closed, person('carol')) as { status: number }).status, 403);
    assert.deepEqual(callerView('/mcp?tools=all', {}, {}, person('carol')), { ok: true, view: { tools: 'full' } });
  });
});
