/**
 * Tests that need a system tool (bubblewrap, socat, debugpy, Chromium…) ask here. Outside CI a
 * missing tool skips them with one line naming it and how to install it, so `npm install && npm test`
 * passes on a machine with only Node and npm; under CI=true (`.ci/run` installs everything) a missing
 * tool is a broken set-up, and skipping would let the tests pass unseen, so it throws.
 *
 * MCP_HOST_TEST_HIDE_TOOLS=bwrap,socat,python3-debugpy makes the named tools count as missing, to see
 * on a fully equipped machine what a bare one does (CONTRIBUTING.md).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** An executable named `cmd` on PATH, else undefined. */
export function onPath(cmd: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return join(dir, cmd);
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

function hidden(): Set<string> {
  return new Set(
    (process.env.MCP_HOST_TEST_HIDE_TOOLS ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  );
}

/**
 * Undefined when `tool` is here; else, outside CI, the skip reason ("needs bwrap (apt-get install
 * bubblewrap)"); under CI=true it throws. `present` checks for what is not a command on PATH (a
 * Python module, a browser at a fixed place); by default `tool` is looked up on PATH.
 */
export function requireTool(
  tool: string,
  install: string,
  present: () => boolean = () => !!onPath(tool),
): string | undefined {
  if (!hidden().has(tool) && present()) return undefined;
  const reason = `needs ${tool} (${install})`;
  if (process.env.CI)
    throw new Error(`${reason}: CI runs these tests (.ci/run installs it), so a missing one is a broken set-up`);
  return reason;
}

/** The first missing tool's skip reason of several, as requireTool; undefined when all are here. */
export function requireTools(tools: readonly (readonly [tool: string, install: string])[]): string | undefined {
  const missing = tools.map(([tool, install]) => requireTool(tool, install)).filter(Boolean);
  return missing.length ? missing.join('; ') : undefined;
}

/** What the sandbox needs on PATH (src/core/sandbox/runtime.ts): bubblewrap, socat and ripgrep. */
export function requireSandboxTools(): string | undefined {
  return requireTools([
    ['bwrap', 'apt-get install bubblewrap'],
    ['socat', 'apt-get install socat'],
    ['rg', 'apt-get install ripgrep'],
  ]);
}
