/**
 * Where MCP Host keeps its own state and secrets, in one place: the code that writes each of these
 * folders takes its path from here, and so does the sandbox, which hides every one of them from
 * sandboxed servers (`hostPrivateDirs`). A new place that holds secrets is added here, or the
 * sandbox does not know to hide it.
 */
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * `MCP_HOST_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcp-host`, `%APPDATA%\mcp-host` on Windows, `~/.config/mcp-host`
 * (`~` is `env`'s HOME: the CLI run in a test's process is given its own). The CLI's secrets.json
 * and state.json, and the per-workspace state both front ends share.
 */
export function userConfigDir(env: Env): string {
  if (env.MCP_HOST_CONFIG_DIR) return env.MCP_HOST_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mcp-host');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcp-host');
  return join(env.HOME || homedir(), '.config', 'mcp-host');
}

/** `$MCP_HOST_HOME` or `~/.mcp-host`: the gateway's discovery files (`gateway/<pid>.json`, with its token). */
export function mcpHostHome(env: Env = process.env): string {
  return env.MCP_HOST_HOME && env.MCP_HOST_HOME.length > 0 ? env.MCP_HOST_HOME : join(homedir(), '.mcp-host');
}

/** `$CLAUDE_CONFIG_DIR/ide`, else `~/.claude/ide`: the IDE server's lock files (with its auth token). */
export function claudeIdeLockDir(env: Env = process.env): string {
  const base =
    env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.length > 0 ? env.CLAUDE_CONFIG_DIR : join(homedir(), '.claude');
  return join(base, 'ide');
}

/**
 * `os.tmpdir()/gemini/ide`, the only folder Gemini CLI looks in: the Gemini IDE server's discovery
 * files. `env`'s TMPDIR is what os.tmpdir() reads first.
 */
export function geminiDiscoveryDir(env: Env = process.env): string {
  const tmp = env.TMPDIR ? env.TMPDIR.replace(/(.)\/+$/, '$1') : tmpdir();
  return join(tmp, 'gemini', 'ide');
}

/**
 * Every folder this process keeps secrets in, for the sandbox to hide. `extra`: what only a front
 * end knows (the editor's globalStorage, where VS Code keeps SecretStorage).
 */
export function hostPrivateDirs(env: Env = process.env, extra: readonly string[] = []): string[] {
  return [...new Set([userConfigDir(env), mcpHostHome(env), claudeIdeLockDir(env), geminiDiscoveryDir(env), ...extra])];
}
