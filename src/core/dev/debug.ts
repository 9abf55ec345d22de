/**
 * `dev.debug`: how a server's command changes to run under a debugger, how to read the debugger's
 * port from its stderr, and the attach configuration the editor starts. Pure; the editor layer
 * (src/extension/dev) does the starting and the stopping.
 */
import { basename } from 'node:path';
import type { StdioServerConfig } from '../config/types.js';
import { McpHostError } from '../errors.js';

/** Loopback only, port from the OS: never a fixed port another engineer's test could hold. */
export const NODE_INSPECT_FLAG = '--inspect=127.0.0.1:0';

function isNodeCommand(command: string): boolean {
  return /^node(\.exe)?$/i.test(basename(command)) || command === process.execPath;
}

function isPythonCommand(command: string): boolean {
  return /^python(\d+(\.\d+)?)?(\.exe)?$/i.test(basename(command));
}

export class DebugSetupError extends McpHostError {}

/**
 * The config that starts the server under its debugger.
 * - node: `node --inspect=127.0.0.1:0 …` when the command is node itself; otherwise (npx, tsx, a
 *   shell script) `NODE_OPTIONS=--inspect=127.0.0.1:0`, and the first Node process to listen wins.
 * - python: `python -m debugpy --listen 127.0.0.1:PORT …`; the command must be a Python
 *   interpreter (debugpy has to be importable by it), and the port is chosen by the caller.
 */
export function debugConfigFor(
  config: StdioServerConfig,
  /** `sandboxedBy`: the server runs sandboxed (admission's plan), by its config or by policy. */
  opts: { pythonPort?: number; sandboxedBy?: 'config' | 'policy' } = {},
): StdioServerConfig {
  const type = config.dev?.debug?.type;
  if (!type) return config;
  if (opts.sandboxedBy === 'policy')
    throw new DebugSetupError(
      "A debugger cannot attach to this server: the managed policy requires it to run sandboxed, and its debug port is inside the sandbox's own network namespace. Ask your administrator for an exemption (sandboxPolicy.exemptServers) to debug it.",
    );
  if (config.sandboxEnabled || opts.sandboxedBy)
    throw new DebugSetupError(
      'A debugger cannot attach to a sandboxed server: its debug port is inside the sandbox\'s own network namespace. Set "sandboxEnabled" to false while debugging.',
    );
  if (type === 'node') {
    if (isNodeCommand(config.command)) {
      if (config.args.some((a) => a.startsWith('--inspect'))) return config;
      return { ...config, args: [NODE_INSPECT_FLAG, ...config.args] };
    }
    const prior = config.env?.NODE_OPTIONS ?? '';
    return { ...config, env: { ...(config.env ?? {}), NODE_OPTIONS: `${prior} ${NODE_INSPECT_FLAG}`.trim() } };
  }
  if (!isPythonCommand(config.command)) {
    throw new DebugSetupError(
      `"dev.debug" type "python" needs the server's command to be a Python interpreter (python, python3), not "${config.command}": debugpy is started as "python -m debugpy".`,
    );
  }
  if (opts.pythonPort === undefined) throw new DebugSetupError('no port was chosen for debugpy');
  return { ...config, args: ['-m', 'debugpy', '--listen', `127.0.0.1:${opts.pythonPort}`, ...config.args] };
}

/** The port of Node's "Debugger listening on ws://127.0.0.1:PORT/…" line, or undefined. */
export function parseDebuggerListening(line: string): { host: string; port: number } | undefined {
  const m = /Debugger listening on wss?:\/\/(\[[^\]]+\]|[^:/\s]+):(\d+)\//.exec(line);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1]!.replace(/^\[|\]$/g, ''), port } : undefined;
}

/** Marker in our debug configurations: which server a session belongs to. */
export const SERVER_KEY = '__mcpHostServer';

/** The attach configuration for `vscode.debug.startDebugging`. */
export function attachConfiguration(
  server: string,
  type: 'node' | 'python',
  host: string,
  port: number,
): Record<string, unknown> & { type: string; name: string; request: string } {
  const name = `MCP server: ${server}`;
  if (type === 'node') {
    return {
      type: 'node',
      request: 'attach',
      name,
      address: host,
      port,
      skipFiles: ['<node_internals>/**'],
      [SERVER_KEY]: server,
    };
  }
  return { type: 'debugpy', request: 'attach', name, connect: { host, port }, justMyCode: true, [SERVER_KEY]: server };
}
