import assert from 'node:assert/strict';
import { test } from 'node:test';
import { urlTarget } from '../../../src/core/calls/url-target.js';
import { parseServerItem } from '../../../src/core/registry/schema.js';

test('a URL elicitation shows and opens the same parsed href, and names the host a browser goes to', () => {
  const t = urlTarget('https://accounts.google.com\\@evil.example/');
  assert.ok(t.ok);
  assert.equal(t.href, 'https://accounts.google.com/@evil.example/');
  assert.equal(t.host, 'accounts.google.com');
  const u = urlTarget('https://accounts.google.com@evil.example/login');
  assert.ok(u.ok);
  assert.equal(u.host, 'evil.example');
  assert.deepEqual(urlTarget('file:///etc/passwd'), {
    ok: false,
    reason: 'it is a file: URL; only http(s) pages are opened',
  });
  assert.equal(urlTarget('not a url').ok, false);
});

test('registry Website and Repository links: only https survives parsing, so no other scheme reaches an opener', () => {
  const item = (websiteUrl: string, repo: string) =>
    parseServerItem({
      name: 'io.github.x/y',
      description: 'd',
      version: '1.0.0',
      websiteUrl,
      repository: { url: repo, source: 'github' },
    }).server!;
  const bad = item('smb://evil.example/share/setup.exe', 'file:///C:/Windows/System32/calc.exe');
  assert.equal(bad.websiteUrl, undefined);
  assert.equal(bad.repositoryUrl, undefined);
  const bad2 = item('vscode://ms-vscode.x/run', 'http://example.com/');
  assert.equal(bad2.websiteUrl, undefined);
  assert.equal(bad2.repositoryUrl, undefined);
  const good = item('https://example.com/docs', 'https://github.com/x/y');
  assert.equal(good.websiteUrl, 'https://example.com/docs');
  assert.equal(good.repositoryUrl, 'https://github.com/x/y');
});
