import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerSnapshot } from '../../../src/core/host-api.js';
import { formatServerDetails } from '../../../src/core/inspector/details.js';

const snapshot = (state: ServerSnapshot['state']): ServerSnapshot => ({
  name: 'calc',
  definition: {
    name: 'calc',
    config: { type: 'stdio', command: 'node', args: ['calc.js'], env: { API_KEY: 'very-secret-key' } },
    source: { scope: 'project', file: '/w/.mcp.json', jsonPath: [] },
    signature: 's',
    hash: 'h',
  },
  state,
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
});

test('details: protocol version, server info, capabilities, instructions, ping, and the config without secrets', () => {
  const md = formatServerDetails({
    snapshot: snapshot({
      kind: 'connected',
      serverInfo: { name: 'calc', version: '1.2.0' },
      capabilities: { tools: {} },
      connectedAt: 0,
      connectMs: 12.4,
    }),
    initialize: {
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'calc', version: '1.2.0' },
      instructions: 'Use add for sums.',
    },
    ping: { ms: 1.234 },
    traced: true,
  });
  assert.match(md, /\*\*Protocol version:\*\* 2025-06-18/);
  assert.match(md, /\*\*Server:\*\* calc 1\.2\.0/);
  assert.match(md, /"listChanged": true/);
  assert.match(md, /Use add for sums\./);
  assert.match(md, /\*\*Ping:\*\* 1\.2 ms/);
  assert.match(md, /\*\*Protocol trace:\*\* on/);
  assert.ok(!md.includes('very-secret-key'));
  assert.match(md, /"API_KEY": "\[redacted\]"/);
});

test('details of a failed server say why, and a failed ping says so', () => {
  const md = formatServerDetails({
    snapshot: snapshot({ kind: 'failed', error: { code: 'server-exited', message: 'calc exited with code 1' }, at: 0 }),
    ping: { error: 'calc is not connected' },
    traced: false,
  });
  assert.match(md, /\*\*State:\*\* failed — calc exited with code 1/);
  assert.match(md, /\*\*Ping:\*\* failed: calc is not connected/);
  assert.doesNotMatch(md, /## Capabilities/);
});

test('details show server-supplied text as text: no markup, no hidden characters, instructions fenced whole', () => {
  const md = formatServerDetails({
    snapshot: snapshot({
      kind: 'connected',
      serverInfo: { name: 'calc', version: '1.0' },
      capabilities: {},
      connectedAt: 0,
      connectMs: 1,
    }),
    initialize: {
      protocolVersion: '2025-11-25',
      serverInfo: { name: '[click](https://evil.example)', version: '1\u202e0' },
      instructions: '# Not a heading\n' + 'x'.repeat(3000) + ' END',
    },
    traced: false,
  });
  assert.ok(!md.includes('[click](https://evil.example)'), 'a link in the server name is escaped');
  assert.ok(!md.includes('\u202e'), 'bidi overrides are stripped');
  assert.match(md, /```text\n# Not a heading\n/);
  assert.match(md, /x{3000} END/);
});
