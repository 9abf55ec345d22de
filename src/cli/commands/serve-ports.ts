/**
 * The ports each form of `serve` opens its session with (cli/session.ts `ServingPorts`), fixed
 * before the session exists: the gateway's bridge for the servers' questions, which of the
 * admitted servers the host runs, and the gateways admission holds back. The thin front of a
 * shared gateway (serve-front.ts) runs no server and gets none.
 */
import { needsApproval, type ServerDefinition } from '../../core/config/index.js';
import { DAEMON_ENV, discoveryDir, GatewayBridge, readDiscovery } from '../../core/gateway/index.js';
import type { ParsedArgs } from '../args.js';
import type { Io } from '../io.js';
import type { ServingPorts } from '../serving.js';
import { sharesServers } from './serve-front.js';
import { serveHttpTelemetry } from './serve-http.js';
import { perUserPorts } from './serve-http-upstreams.js';
import { startTelemetry } from '../telemetry.js';
import { stderrLogger } from '../ports.js';

/** The scopes of files the operator owns: managed, user, and the `--config` files (dynamic). */
const OPERATOR_SCOPES = new Set(['managed', 'user', 'dynamic']);

/** What `a`'s command plugs into its session; undefined for every command but a serve that runs servers. */
export function servingPorts(a: ParsedArgs, io: Io): ServingPorts | undefined {
  if (a.command !== 'serve') return undefined;
  if (a.http) {
    // The team gateway's servers come only from files the operator owns (serve-http.ts).
    const excluded = new Set(a.exclude);
    // A per-user entry for a server that cannot take a person's token leaves that server out.
    const perUser = perUserPorts(io, a);
    return {
      bridge: new GatewayBridge(),
      definitions: (all) =>
        perUser.filter(all.filter((d) => OPERATOR_SCOPES.has(d.source.scope) && !excluded.has(d.name))),
      telemetry: serveHttpTelemetry(io, a),
      perUser,
    };
  }
  const daemon = io.env[DAEMON_ENV];
  if ((daemon === undefined || daemon === '') && sharesServers(a, io.env)) return undefined;
  return {
    // No UI here: a question from a server goes to the agent or is declined.
    bridge: new GatewayBridge(),
    definitions: exposedServers(io, a),
    // Entries pointing at a running editor's gateway would expose the same servers twice, and an
    // `mcp-host serve` entry would start this command inside itself. Admission holds those back
    // (config/admit.ts); the running gateways are found again on each read.
    ownGateways: async () => (await readDiscovery(discoveryDir(io.env))).map((g) => g.url),
    // The OTEL_* environment only: serve reads no "gateway" object.
    telemetry: () =>
      startTelemetry(io.env, { defaultServiceName: 'mcp-host', warn: (l) => stderrLogger(io.env, io.stderr).warn(l) }),
  };
}

/** Servers the config offers that serve exposes: not `--exclude`d, the folder's only when allowed; says why once. */
function exposedServers(io: Io, a: ParsedArgs): (all: ServerDefinition[]) => ServerDefinition[] {
  // `--exclude NAME`, like the editor's mcpHost.gateway.exclude. Here the gateway is a server's
  // only user, so an excluded server is not started at all.
  const excluded = new Set(a.exclude);
  let warned = false;
  let warnedHeld = false;
  return (all) => {
    const unknown = [...excluded].filter((n) => !all.some((d) => d.name === n));
    if (unknown.length > 0 && !warned) {
      warned = true;
      // Said whatever MCP_HOST_LOG is: a misspelt name would otherwise expose the server it meant to hide.
      io.stderr(
        `mcp-host serve: --exclude ${unknown.join(', ')}: no such server in the config (servers: ${all.map((d) => d.name).join(', ') || 'none'})\n`,
      );
    }
    // An agent that registered `mcp-host serve` once (user scope) launches it in whatever folder it
    // works in: that folder's servers run commands from a repository nobody approved, so they start
    // only when whoever wrote the serve command line said so.
    const held = a.allowProjectServers ? [] : all.filter((d) => needsApproval(d) && !excluded.has(d.name));
    if (held.length > 0 && !warnedHeld) {
      warnedHeld = true;
      io.stderr(
        `mcp-host serve: not starting ${held.map((d) => d.name).join(', ')} from ${[...new Set(held.map((d) => d.source.file))].join(', ')}: servers defined by the folder start only with --allow-project-servers\n`,
      );
    }
    return all.filter((d) => !excluded.has(d.name) && (a.allowProjectServers || !needsApproval(d)));
  };
}
