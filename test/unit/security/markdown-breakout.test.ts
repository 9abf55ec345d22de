/** Issue 29, item 8: a server's self-description cannot end a code span or start Markdown with `\r` or U+2028. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wrapTools, wrapPrompts, wrapResources } from '../../../src/core/capabilities/index.js';
import { escapeInline } from '../../../src/core/calls/render-markdown.js';
import { connectedState, type LiveConnection } from '../../../src/core/connection/connect.js';
import { serverTooltip } from '../../../src/extension/tree/model.js';
import { connected, snap } from '../extension/fixtures.js';

const EVIL = 'srv\r\r**pwned** [click](https://evil.example)\u2028\u2029x\r\ny\u0007';

test('what a server says about itself is one clean line when received (name, version, title), instructions with \\n only', () => {
  const client = {
    getServerVersion: () => ({ name: EVIL, version: `1.0\r${EVIL}`, title: EVIL }),
    getInstructions: () => 'one\rtwo\u2028three\r\nfour',
    getServerCapabilities: () => ({}),
  };
  const st = connectedState('s', { client, connectMs: 1 } as unknown as LiveConnection, 0);
  assert.equal(st.kind, 'connected');
  if (st.kind !== 'connected') return;
  for (const v of [st.serverInfo.name, st.serverInfo.version, st.serverInfo.title!])
    assert.ok(!/[\r\n\u2028\u2029]/.test(v) && !v.includes('\u0007'), JSON.stringify(v));
  assert.equal(st.instructions, 'one\ntwo\nthree\nfour');
  const [t] = wrapTools('s', [{ name: 't', title: EVIL, inputSchema: { type: 'object' } }], new Set());
  assert.doesNotMatch(t!.title!, /[\r\n\u2028\u2029]/);
  const [p] = wrapPrompts('s', [{ name: 'p', title: EVIL }]);
  assert.doesNotMatch(p!.title!, /[\r\n\u2028\u2029]/);
  const [r] = wrapResources('s', [{ uri: 'x:/', name: EVIL }]);
  assert.doesNotMatch(r!.name, /[\r\n\u2028\u2029]/);
});

test('the tooltip and inline Markdown fragments turn every line ending into a space, so a code span cannot be ended', () => {
  const raw = { ...connected, serverInfo: { name: EVIL, version: '1' } };
  const tip = serverTooltip(snap('s', raw), (t) => t);
  const line = tip.split('\n').find((l) => l.startsWith('Server:'))!;
  assert.doesNotMatch(line, /[\r\u2028\u2029]/);
  assert.match(line, /^Server: ` srv {2}\*\*pwned\*\*/);
  assert.doesNotMatch(escapeInline(EVIL), /[\r\n\u2028\u2029]/);
});
