/** The command table's ids are exactly the commands package.json contributes (no orphan, none missing). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMAND_IDS } from '../../../src/extension/command-ids.js';

test('COMMAND_IDS equals contributes.commands, and every contributed command is in the "MCP Host" category', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string; category?: string }[] };
  };
  const contributed = pkg.contributes.commands.map((c) => c.command);
  assert.deepEqual([...COMMAND_IDS].sort(), [...contributed].sort());
  assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length, 'no id twice');
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'MCP Host', c.command);
});
