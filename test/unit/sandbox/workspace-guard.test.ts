/** The workspace files a sandboxed server may not write: found where they exist, never invented. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { protectedWritePaths } from '../../../src/core/sandbox/workspace-guard.js';

test('existing protected files are listed at the top and a few levels down; missing ones and node_modules are not', async () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'guard-'));
  try {
    const mk = (p: string, dir = false) => {
      const full = path.join(ws, p);
      fs.mkdirSync(dir ? full : path.dirname(full), { recursive: true });
      if (!dir) fs.writeFileSync(full, '');
    };
    mk('.vscode', true);
    mk('.mcp.json');
    mk('.git/hooks', true);
    mk('.git/config');
    mk('.github/mcp.json');
    mk('.github/workflows/ci.yml');
    mk('a/b/.envrc');
    mk('a/b/c/d/.bashrc'); // deeper than the search
    mk('node_modules/x/.mcp.json');
    const got = (await protectedWritePaths([ws])).map((p) => path.relative(ws, p)).sort();
    assert.deepEqual(got, ['.git/config', '.git/hooks', '.github/mcp.json', '.mcp.json', '.vscode', 'a/b/.envrc']);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
