/** The core's ports as the CLI provides them: a stderr logger, inputs from the environment, a blob folder. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { InputResolver, Logger } from '../core/ports.js';
import { redactString } from '../core/redact.js';

const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];

/**
 * Log lines go to stderr, prefixed, at or above `MCP_HOST_LOG` (default: nothing but the CLI's own
 * messages, so server chatter never mixes into a command's output). Every line is redacted here,
 * whatever its caller did: server output reaches the logger from several places.
 */
export function stderrLogger(env: Record<string, string | undefined>, write: (s: string) => void): Logger {
  const wanted = (env.MCP_HOST_LOG ?? '').toLowerCase();
  const max = LEVELS.indexOf(wanted as Level);
  const at = (level: Level) => (message: string) => {
    if (max >= 0 && LEVELS.indexOf(level) <= max) write(`[${level}] ${redactString(message)}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace') };
}

/** `MCP_HOST_INPUT_<ID>`: the id upper-cased, every character outside [A-Z0-9] as `_`. */
export function inputVariableName(id: string): string {
  return `MCP_HOST_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * `${input:id}` values for VS Code-format files. The CLI never prompts (it may run in CI), so a
 * value comes from the environment; a missing one is reported by the config layer as unresolved.
 */
export function envInputs(env: Record<string, string | undefined>): InputResolver {
  return {
    // The CLI never prompts: the environment, else the declared default (a command input has none).
    resolve: (id, ctx) =>
      Promise.resolve(
        env[inputVariableName(id)] ?? (ctx.declaration?.type !== 'command' ? ctx.declaration?.default : undefined),
      ),
  };
}

/** Where binary resource contents are saved: `MCP_HOST_BLOB_DIR`, else the user's cache folder. */
export function blobDirFor(env: Record<string, string | undefined>): string {
  if (env.MCP_HOST_BLOB_DIR) return env.MCP_HOST_BLOB_DIR;
  const cache = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(homedir(), '.cache');
  return join(cache, 'mcp-host', 'blobs');
}
