/** The folders the config-edit tests write into: a Claude Code `.mcp.json`, a commented VS Code
 * `.vscode/mcp.json` and the editor's user settings, each in the formatting an edit must keep. */
import { after, before } from 'node:test';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fake-registry.js';
import { createHarness, type Harness } from './harness.js';

// Claude Code reads .mcp.json as plain JSON (no comments): its own formatting must survive.
export const PROJECT = `{
    "mcpServers": {
        "keep": { "command": "node", "args": ["keep.js"] },
        "other": {"url": "https://other.example/mcp"}
    },
    "extra": [1, 2]
}
`;

export const WORKSPACE = `{
  // team servers (VS Code format, comments allowed)
  "servers": {
    "wkeep": { "command": "node", "args": ["wkeep.js"] }, // stays
    /* block comment */
    "wother": { "type": "http", "url": "https://wother.example/mcp" }
  }
}
`;

export const SETTINGS = `{
  // my editor settings
  "editor.fontSize": 14,
  "mcpHost.servers": {
    "mine": { "command": "node", "args": ["mine.js"] } // personal
  }
}
`;

export async function editFolder(h: Harness, name: string): Promise<{ ws: string; settings: string }> {
  const ws = join(h.dir, name);
  await mkdir(ws, { recursive: true });
  await writeFile(join(ws, '.mcp.json'), PROJECT);
  await mkdir(join(ws, '.vscode'));
  await writeFile(join(ws, '.vscode', 'mcp.json'), WORKSPACE);
  const settings = join(h.dir, `${name}-settings.json`);
  await writeFile(settings, SETTINGS);
  return { ws, settings };
}

/** The CLI's environment for a folder: its user settings file and the fake registry. */
export function editEnv(registryUrl: string, settings: string): Record<string, string> {
  return { MCP_HOST_USER_SETTINGS: settings, MCP_HOST_REGISTRY_URL: registryUrl };
}

/** A harness and a local registry before the calling file's tests (handed to `set`), closed after them. */
export function withEditFixtures(set: (opened: { h: Harness; reg: FakeRegistry }) => void): void {
  let opened: { h: Harness; reg: FakeRegistry } | undefined;
  before(async () => {
    opened = { h: await createHarness(), reg: await startFakeRegistry() };
    set(opened);
  });
  after(async () => {
    await opened?.reg.close();
    await opened?.h.dispose();
  });
}
