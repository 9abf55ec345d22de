/**
 * Files in a writable folder that would let a sandboxed server act outside its sandbox: shell and
 * git start-up files, git hooks, editor and agent settings, and the MCP configs this host (and
 * others) read, where a server could add an unsandboxed server. The sandbox runtime write-protects
 * these only under the host process's working directory (for VS Code usually `/` or the home
 * folder, never the workspace), so they are listed here for every folder the server may write, at
 * the top and (as the runtime does) a few levels down.
 *
 * Only paths that exist are listed: for a missing one the runtime would leave a placeholder file or
 * folder in the workspace while the server runs (an empty `.mcp.json` or `.git` the editor and this
 * host would then read), so a server may still create one that is missing (docs/sandbox.md says so).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Written inside, each runs or configures something outside the sandbox. */
export const PROTECTED_FILES = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.envrc',
  '.mcp.json',
];
export const PROTECTED_DIRS = ['.vscode', '.idea', '.claude', '.gemini', '.cursor'];
/** Under a `.git` folder (a worktree's `.git` is a file and has neither). */
const GIT_PARTS = ['hooks', 'config'];
/** Under a `.github` folder: Copilot CLI's project servers (this host reads them too). */
const GITHUB_PARTS = ['mcp.json'];

const SEARCH_DEPTH = 3;
/** Bounds the walk in a huge tree: what is found by then is protected, as the runtime's scan does. */
const MAX_ENTRIES = 20_000;
const SKIP = new Set(['node_modules']);

/** The protected paths that exist in `folders`, down to a few levels. */
export async function protectedWritePaths(folders: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  let budget = MAX_ENTRIES;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth >= SEARCH_DEPTH || budget <= 0) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    budget -= entries.length;
    const below: Promise<void>[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (PROTECTED_DIRS.includes(e.name)) out.add(p);
        else if (e.name === '.git') for (const g of GIT_PARTS) out.add(join(p, g));
        else {
          if (e.name === '.github') for (const g of GITHUB_PARTS) out.add(join(p, g));
          if (!SKIP.has(e.name)) below.push(walk(p, depth + 1));
        }
      } else if (PROTECTED_FILES.includes(e.name)) out.add(p);
    }
    await Promise.all(below);
  };
  await Promise.all(folders.map((f) => walk(f, 0)));
  const found = await Promise.all([...out].map(async (p) => ((await lstat(p).catch(() => undefined)) ? p : undefined)));
  return found.filter((p): p is string => p !== undefined);
}
