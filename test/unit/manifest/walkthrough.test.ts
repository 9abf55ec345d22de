import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const repo = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string; category?: string }[];
    walkthroughs: {
      id: string;
      steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[];
    }[];
    configuration: { properties: Record<string, { default?: unknown }> };
    menus: Record<string, { command: string }[]>;
  };
};
const declared = new Set(pkg.contributes.commands.map((c) => c.command));

test('the Getting Started walkthrough: its pages exist, and every mcpHost command it links or waits for is declared', () => {
  const [w] = pkg.contributes.walkthroughs;
  assert.ok(w);
  assert.deepEqual(
    w.steps.map((s) => s.id),
    ['addServer', 'approve', 'callTool', 'connectAgent'],
  );
  for (const s of w.steps) {
    assert.ok(s.media.markdown && existsSync(join(repo, s.media.markdown)), `${s.id}: ${s.media.markdown} exists`);
    const used = [
      ...s.description.matchAll(/command:(mcpHost\.[\w.]+)/g),
      ...(s.completionEvents ?? []).join(' ').matchAll(/onCommand:(mcpHost\.[\w.]+)/g),
    ].map((m) => m[1]!);
    for (const c of used) assert.ok(declared.has(c), `${s.id} uses undeclared ${c}`);
  }
});

test('registry and config-tool commands are declared in the MCP Host category, in menus, with the registry setting', () => {
  for (const id of ['mcpHost.browseRegistry', 'mcpHost.removeServer', 'mcpHost.importServers']) {
    assert.equal(pkg.contributes.commands.find((c) => c.command === id)?.category, 'MCP Host', id);
  }
  assert.ok(pkg.contributes.menus['view/item/context']!.some((m) => m.command === 'mcpHost.removeServer'));
  assert.ok(pkg.contributes.menus['view/title']!.some((m) => m.command === 'mcpHost.browseRegistry'));
  assert.equal(
    pkg.contributes.configuration.properties['mcpHost.registry.url']?.default,
    'https://registry.modelcontextprotocol.io',
  );
});
