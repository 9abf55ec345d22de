/**
 * `mcp-host serve`: the gateway over stdio, for clients that launch their servers themselves
 * (Claude Desktop, Cursor, `claude mcp add mcp-host -- mcp-host serve`). Same config as the other
 * commands, the CLI's stored sign-ins; stdout carries only JSON-RPC, diagnostics go to stderr.
 *
 * By default the sessions of one folder share one gateway (serve-front.ts, serve-shared.ts): N
 * agent sessions, one process per server, each session still its own profile, questions and
 * result pages. `--own-servers` is the gateway in this process, as before.
 */
import { AgentStdioTransport, DAEMON_ENV } from '../../core/gateway/index.js';
import { serveFront, sharesServers } from './serve-front.js';
import { serveShared } from './serve-shared.js';
import { openServeGateway, serveAgent, stopServeGateway, viewOf } from './serve-gateway.js';
import { watchAgent } from './serve-lifetime.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, type ExitCode } from '../errors.js';
import type { Session } from '../session.js';

export async function serve(session: Session, a: ParsedArgs): Promise<ExitCode> {
  // Started by a front (serve-front.ts) as the folder's shared gateway.
  const shared = session.io.env[DAEMON_ENV];
  if (shared !== undefined && shared !== '') return serveShared(session, a, shared);
  // From the first moment: an agent that leaves while the config is read or servers connect ends serve too.
  const agent = watchAgent(process.stdin, process.stdout);
  try {
    if (sharesServers(a, session.io.env)) return await serveFront(session, a, agent.gone);
    return await serveUntilGone(session, a, agent.gone);
  } finally {
    agent.dispose();
  }
}

/** `--own-servers` (or MCP_HOST_SERVE_SHARE=0): one gateway and set of servers for this serve alone. */
async function serveUntilGone(session: Session, a: ParsedArgs, gone: Promise<string>): Promise<ExitCode> {
  const { gateway, logger } = await openServeGateway(session, a);
  // Served at once, while servers connect: their tools reach the agent with list_changed.
  const served = serveAgent(gateway, viewOf(a), new AgentStdioTransport(), logger);
  const why = await gone;
  logger.debug(`serve: the agent is gone (${why}); stopping`);
  await stopServeGateway(session, gateway, [served]);
  return EXIT.ok;
}
