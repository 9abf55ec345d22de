/**
 * The folder's shared gateway: the process a `serve` front starts detached (serve-front.ts), one
 * per user and folder. It listens first (listener.ts: of two started at once, the second finds
 * the socket taken and leaves before starting a server), then starts the servers as `serve`
 * always has, and serves each session over its socket exactly as `serve` serves its stdio: the
 * SDK picks the era per connection, each session is one agent (its questions go to it, its
 * result pages are its own: `privateResults`), with the view its hello asked for.
 */
import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { AgentStdioTransport, graceMs, SharedListener, type Gateway } from '../../core/gateway/index.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, type ExitCode } from '../errors.js';
import { stderrLogger } from '../ports.js';
import type { Session } from '../session.js';
import { setStderrTee } from '../process-hooks.js';
import { openServeGateway, serveAgent, serveSettings, stopServeGateway } from './serve-gateway.js';

export async function serveShared(session: Session, a: ParsedArgs, dir: string): Promise<ExitCode> {
  const io = session.io;
  const logger = stderrLogger(io.env, io.stderr);
  const profiles = serveSettings(session, { ...a, profile: undefined }).profiles;
  const served = new Set<StdioServerHandle>();
  let ready: (g: Gateway) => void = () => {};
  const gatewayReady = new Promise<Gateway>((resolve) => (ready = resolve));
  const listener = await SharedListener.open({
    dir,
    key: dir.split(/[\\/]/).pop()!,
    graceMs: graceMs(io.env),
    logger,
    check: (view) =>
      view.profile !== undefined && !Object.hasOwn(profiles, view.profile)
        ? `--profile ${view.profile}: no such profile`
        : undefined,
    onSession: (socket, view, rest) => {
      // What the session sent after its hello is the start of its JSON-RPC.
      if (rest.length > 0) socket.unshift(rest);
      void gatewayReady.then((gateway) => {
        if (socket.destroyed) return;
        const handle = serveAgent(gateway, view, new AgentStdioTransport(socket, socket), logger);
        served.add(handle);
        // The hello left the socket paused; a 'data' listener alone does not restart it.
        setImmediate(() => socket.resume());
        socket.once('close', () => {
          served.delete(handle);
          void handle.close().catch(() => undefined);
        });
      });
    },
  });
  if (!listener) {
    logger.debug('serve: another shared gateway serves this folder; leaving');
    return EXIT.ok;
  }
  // What this gateway says reaches each session's stderr, as its own serve would have said it.
  setStderrTee((text) => listener.broadcast(text));
  const { gateway } = await openServeGateway(session, a, { privateResults: true });
  ready(gateway);
  logger.debug(`serve: shared gateway of ${dir} listening (pid ${process.pid})`);
  const why = await listener.idle;
  logger.debug(`serve: shared gateway ending (${why})`);
  setStderrTee(undefined);
  await stopServeGateway(session, gateway, [...served]);
  return EXIT.ok;
}
