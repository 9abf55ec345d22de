/** The per-user folder MCP Host keeps its own state in, shared by the editor and the CLI. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * `MCP_HOST_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcp-host`, `%APPDATA%\mcp-host` on Windows, `~/.config/mcp-host`
 * (`~` is `env`'s HOME: the CLI run in a test's process is given its own).
 */
export function userConfigDir(env: Record<string, string | undefined>): string {
  if (env.MCP_HOST_CONFIG_DIR) return env.MCP_HOST_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'mcp-host');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mcp-host');
  return join(env.HOME || homedir(), '.config', 'mcp-host');
}
