import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TOOL_NAME_LENGTH, normalizeName, qualifiedToolName, rawQualifiedName } from '../../src/core/naming.js';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

test('normalizeName maps every character outside [A-Za-z0-9_-] to one underscore per code point', () => {
  assert.equal(normalizeName('my.server name/v2'), 'my_server_name_v2');
  assert.equal(normalizeName('ok-Name_9'), 'ok-Name_9');
  assert.equal(normalizeName('😀x'), '_x');
  assert.equal(normalizeName('ec\u200Bho'), 'ec_ho');
});

test('a short name that is free is used as is', () => {
  assert.equal(qualifiedToolName('github', 'create_issue', new Set()), 'mcp__github__create_issue');
  assert.equal(rawQualifiedName('a.b', 'c d'), 'mcp__a_b__c_d');
});

test('a long name is cut to 64 characters with a deterministic hash suffix', () => {
  const tool = 'x'.repeat(100);
  const a = qualifiedToolName('server', tool, new Set());
  const b = qualifiedToolName('server', tool, new Set());
  assert.equal(a.length, MAX_TOOL_NAME_LENGTH);
  assert.match(a, VALID);
  assert.equal(a, b);
  assert.ok(a.startsWith('mcp__server__xxxx'));
});

test('two long names that only differ after the cut get different names', () => {
  const prefix = 'very_long_tool_name_that_goes_on_and_on_and_on_and_on_and_on_';
  const a = qualifiedToolName('srv', `${prefix}alpha`, new Set());
  const b = qualifiedToolName('srv', `${prefix}beta`, new Set([a]));
  assert.notEqual(a, b);
  assert.equal(a.length, 64);
  assert.equal(b.length, 64);
  assert.equal(a.slice(0, 55), b.slice(0, 55));
});

test('names that normalise to the same string are disambiguated, the first keeps the plain name', () => {
  const taken = new Set<string>();
  const first = qualifiedToolName('s', 'a.b', taken);
  taken.add(first);
  const second = qualifiedToolName('s', 'a_b', taken);
  assert.equal(first, 'mcp__s__a_b');
  assert.notEqual(second, first);
  assert.match(second, VALID);
  assert.ok(second.length <= 64);
});

test('a hashed name that is itself taken still yields a unique name', () => {
  const tool = 'y'.repeat(80);
  const firstChoice = qualifiedToolName('s', tool, new Set());
  const next = qualifiedToolName('s', tool, new Set([firstChoice]));
  assert.notEqual(next, firstChoice);
  assert.equal(next.length, 64);
});
