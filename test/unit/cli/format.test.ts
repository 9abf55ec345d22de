import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentText, oneLine, safeJson, table, visible } from '../../../src/cli/format.js';

const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

test('safeJson escapes hidden characters: same data, harmless text', () => {
  const value = {
    name: 'read\u202Eelif\u202C',
    d: `x${String.fromCodePoint(0xe0041)}\u200B`,
    plain: 'café ✓',
    ctl: 'a\u0085b',
  };
  const text = safeJson(value);
  assert.doesNotMatch(text, HIDDEN);
  assert.ok(text.includes('read\\u202eelif\\u202c'));
  assert.deepEqual(JSON.parse(text), value);
});

test('visible shows hidden characters of identifiers as \\u{…}', () => {
  assert.equal(visible('ec\u200Bho'), 'ec\\u{200B}ho');
  assert.equal(visible('plain'), 'plain');
});

test('table pads all but the last column', () => {
  assert.equal(
    table(
      [
        ['a', 'bbb', 'c'],
        ['dd', 'e', 'f'],
      ],
      ['H1', 'H2', 'H3'],
    ),
    'H1  H2   H3\na   bbb  c\ndd  e    f\n',
  );
  assert.equal(table([]), '');
});

test('content blocks print as text or one-line summaries', () => {
  assert.equal(contentText({ type: 'text', text: 'hi' }), 'hi');
  assert.equal(contentText({ type: 'image', mimeType: 'image/png', data: 'AAAA' }), '[image image/png, 3 bytes]');
  assert.equal(
    contentText({ type: 'resource', uri: 'x://1', blobPath: '/b/1.bin' }),
    '[resource x://1 saved to /b/1.bin]',
  );
  assert.equal(contentText({ type: 'resource_link', uri: 'x://2', name: 'two' }), '[resource link x://2 (two)]');
  assert.equal(oneLine('first\nsecond'), 'first');
  assert.equal(oneLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
});
