/** Exit codes of `mcp-host` (a contract with scripts: docs/cli.md) and the error that carries one. */
import { HostError, McpHostError } from '../core/errors.js';

export const EXIT = {
  ok: 0,
  /** The tool (or the server, answering a request) reported an error. */
  toolError: 1,
  /** Usage, argument or config error: the user can fix the command line or the config. */
  usage: 2,
  /** The server could not be reached, or a request timed out. */
  connection: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error that ends the command with `code`; `message` (and `hint`) go to stderr. */
export class CliError extends McpHostError {
  constructor(
    readonly code: ExitCode,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
    this.name = 'CliError';
  }
}

export function usageError(message: string, hint?: string): CliError {
  return new CliError(EXIT.usage, message, hint);
}

const USAGE_CODES = new Set(['unknown-server', 'unknown-tool', 'invalid-arguments', 'disabled']);

/** Exit code for an error thrown by the host. */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CliError) return err.code;
  if (err instanceof HostError) {
    if (USAGE_CODES.has(err.code)) return EXIT.usage;
    // A JSON-RPC error answer to a call: the request reached the server, which said no.
    if (err.code === 'server-error') return EXIT.toolError;
    return EXIT.connection;
  }
  return EXIT.connection;
}
