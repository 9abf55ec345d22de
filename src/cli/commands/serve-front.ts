/**
 * `serve` as a thin front (the default): the agent's stdio joined to its folder's shared gateway
 * (serve-shared.ts), started detached when none runs. Five agent sessions in one folder then run
 * one process per server instead of five. The front checks what it can say at once (a `--profile`
 * that does not exist is a usage error, as before), sends the session's view (profile, tool
 * listing) with its hello, and from then on passes the agent's JSON-RPC lines both ways, writing
 * the gateway's stderr lines (hello.ts) to its own stderr.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import {
  connectShared,
  DAEMON_ENV,
  SHARE_ENV,
  shareDir,
  shareKey,
  SharedRefusal,
  stderrOf,
} from '../../core/gateway/index.js';
import { OWNER_ENV } from '../../core/process-marks.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, usageError, type ExitCode } from '../errors.js';
import { stderrLogger } from '../ports.js';
import type { Session } from '../session.js';
import { cliEntry } from '../process-hooks.js';
import { serveSettings, viewOf } from './serve-gateway.js';

/**
 * Whether this serve shares its folder's gateway: the default, for the `mcp-host` program. Not
 * with `--trace FILE`: the trace is of this session's run, and two processes would write one file.
 */
export function sharesServers(a: ParsedArgs, env: Record<string, string | undefined>): boolean {
  return !a.ownServers && a.trace === undefined && env[SHARE_ENV] !== '0' && cliEntry() !== undefined;
}

/** What decides which servers start and how: sessions that agree on these share (key.ts). */
function keyOptions(a: ParsedArgs): Record<string, unknown> {
  return {
    workspace: a.workspace ?? null,
    configs: a.configs,
    userSettings: a.userSettings ?? null,
    verbose: a.verbose ?? false,
    allowProjectServers: a.allowProjectServers,
    exclude: [...a.exclude].sort(),
    maxResultTokens: a.maxResultTokens ?? null,
  };
}

/** Starts the shared gateway: this CLI again, detached, in its own session, its stderr to the folder's log. */
function startGateway(dir: string, cwd: string, env: Record<string, string | undefined>): () => boolean {
  const log = openSync(join(dir, 'gateway.log'), 'w', 0o600);
  try {
    const childEnv: Record<string, string | undefined> = { ...env, [DAEMON_ENV]: dir };
    // Owned by the user, not by whoever launched this serve: an editor's host-death watcher
    // (host-reaper.ts) ends what carries its marker, and the other sessions still use the gateway.
    delete childEnv[OWNER_ENV];
    const child = spawn(process.execPath, [...(cliEntry() ?? []), ...process.argv.slice(2)], {
      cwd,
      env: childEnv,
      detached: true,
      stdio: ['ignore', 'ignore', log],
      windowsHide: true,
    });
    let ended = false;
    child.on('error', () => (ended = true));
    child.on('exit', () => (ended = true));
    child.unref();
    return () => !ended;
  } finally {
    closeSync(log);
  }
}

/**
 * Passes the gateway's lines to stdout (JSON-RPC) or stderr (its diagnostics). Each chunk's
 * JSON-RPC lines go out in one write, and a line that spans chunks is joined once, when its end
 * arrives: joining every chunk onto the rest and scanning from its start again was quadratic in a
 * large result's size.
 */
function relayFromGateway(socket: Socket, first: Buffer, stderr: (s: string) => void): void {
  let partial: Buffer[] = [];
  const relay = (chunk: Buffer): void => {
    const out: Buffer[] = [];
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(0x0a, start)) !== -1) {
      const piece = chunk.subarray(start, nl + 1);
      const line = partial.length ? Buffer.concat([...partial, piece]) : piece;
      partial = [];
      start = nl + 1;
      const text = stderrOf(line);
      if (text === undefined) out.push(line);
      else {
        if (out.length) process.stdout.write(out.length === 1 ? out[0]! : Buffer.concat(out.splice(0)));
        stderr(text);
      }
    }
    if (start < chunk.length) partial.push(chunk.subarray(start));
    if (out.length) process.stdout.write(out.length === 1 ? out[0]! : Buffer.concat(out));
  };
  if (first.length) relay(first);
  socket.on('data', relay);
  socket.resume();
}

export async function serveFront(session: Session, a: ParsedArgs, gone: Promise<string>): Promise<ExitCode> {
  const io = session.io;
  const logger = stderrLogger(io.env, io.stderr);
  serveSettings(session, a);
  const view = viewOf(a);
  const cwd = realpathSync(io.cwd);
  const dir = shareDir(io.env, shareKey({ cwd, options: keyOptions(a), env: io.env }));
  let conn;
  try {
    conn = await Promise.race([
      connectShared({ dir, view, start: () => startGateway(dir, cwd, io.env) }),
      gone.then(() => undefined),
    ]);
  } catch (err) {
    if (err instanceof SharedRefusal) throw usageError(err.message);
    throw err;
  }
  if (!conn) return EXIT.ok;
  logger.debug(`serve: sharing the gateway in ${dir} (pid ${conn.pid})`);
  const { socket } = conn;
  relayFromGateway(socket, conn.rest, io.stderr);
  process.stdin.pipe(socket);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve('gateway')));
  const why = await Promise.race([gone, closed]);
  process.stdin.unpipe(socket);
  socket.destroy();
  if (why === 'gateway') {
    io.stderr('mcp-host serve: the shared gateway ended this session\n');
    return EXIT.connection;
  }
  logger.debug(`serve: the agent is gone (${why}); leaving the shared gateway`);
  return EXIT.ok;
}
