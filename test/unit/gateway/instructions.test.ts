/** The gateway's instructions: front-end wording, servers still connecting, servers' own bounded per server and in total. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerSnapshot } from '../../../src/core/host-api.js';
import {
  connectingServers,
  gatewayInstructions,
  MAX_ALL_INSTRUCTIONS,
} from '../../../src/core/gateway/instructions.js';
import { searchModeCall, ToolIndex } from '../../../src/core/gateway/tool-search.js';

function snap(name: string, state: ServerSnapshot['state']): ServerSnapshot {
  return { name, state, tools: [], resources: [], resourceTemplates: [], prompts: [] } as unknown as ServerSnapshot;
}
const connected = (instructions?: string): ServerSnapshot['state'] => ({
  kind: 'connected',
  serverInfo: { name: 'x', version: '1' },
  capabilities: {},
  connectedAt: 0,
  connectMs: 1,
  ...(instructions !== undefined ? { instructions } : {}),
});
const pending: ServerSnapshot['state'] = { kind: 'pending', attempt: 1, maxAttempts: 3, since: 0 };
const all = (): boolean => true;

test('worded for the front end; servers still connecting are named', () => {
  const servers = [snap('a', connected()), snap('slow', pending), snap('hidden', pending)];
  const editor = gatewayInstructions('editor', servers, (s) => s !== 'hidden');
  assert.match(editor, /connected in the editor/);
  assert.match(editor, /Still connecting: slow\./);
  assert.doesNotMatch(editor, /hidden/);
  const serve = gatewayInstructions('serve', [snap('a', connected())], all);
  assert.match(serve, /mcp-host serve runs/);
  assert.doesNotMatch(serve, /editor|Still connecting/);
  assert.deepEqual(connectingServers(servers, all), ['slow', 'hidden']);
});

test('each server’s own under its name, cut per server, and past the total the rest are named', () => {
  const servers = Array.from({ length: 8 }, (_, i) => snap(`s${i}`, connected('z'.repeat(5000))));
  const text = gatewayInstructions('serve', servers, all);
  assert.ok(text.length <= MAX_ALL_INSTRUCTIONS + 1024, String(text.length));
  const sections = text.match(/^## Instructions of the server "s\d"/gm) ?? [];
  assert.ok(sections.length >= 3 && sections.length < 8, String(sections.length));
  assert.match(text, /Instructions of s\d(, s\d)* left out \(too long together\)\./);
  for (const body of text.split(/^## .*$/m).slice(1)) assert.ok(body.length < 2200, String(body.length));
});

test('search results say which servers are still connecting', () => {
  const index = new ToolIndex([]);
  const step = searchModeCall('search_tools', { query: 'anything' }, index, () => undefined, ['slow']);
  assert.ok('result' in step);
  const out = JSON.parse(step.result.content[0]!.text) as { stillConnecting?: string[] };
  assert.deepEqual(out.stillConnecting, ['slow']);
  const none = searchModeCall('search_tools', { query: 'anything' }, index, () => undefined);
  assert.ok('result' in none);
  assert.equal((JSON.parse(none.result.content[0]!.text) as { stillConnecting?: string[] }).stillConnecting, undefined);
});
