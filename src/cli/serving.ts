/**
 * What a session that serves (`serve`) is opened with (cli/session.ts), fixed before it exists:
 * commands/serve-ports.ts makes them from the command line.
 */
import type { ServerDefinition } from '../core/config/index.js';
import type { GatewayBridge, PerUserAuth } from '../core/gateway/index.js';
import type { DefinitionsPort } from '../core/host-assembly.js';
import type { CliTelemetry } from './telemetry.js';

/**
 * The ports of a session whose registry feeds the host for as long as it runs (`serve`), instead
 * of each command starting the servers it needs. Such a session leaves the first read of the
 * config to its command, so no server starts before the gateway that offers it is up.
 */
export interface ServingPorts {
  /** Servers' questions, sampling and log lines go to the agents of this gateway (there is no terminal UI). */
  bridge: GatewayBridge;
  /** Which admitted servers the host runs (not `--exclude`d, the operator's own, ...). */
  definitions: DefinitionsPort;
  /** Gateway URLs admission holds back (an entry pointing at one would loop). */
  ownGateways?: () => Promise<readonly string[]>;
  /**
   * Starts OpenTelemetry when it is configured (telemetry.ts), as the session opens: before the
   * host exists, so each launch's transport is wrapped from the first. The session ends it.
   */
  telemetry?: () => Promise<CliTelemetry | undefined>;
  /** The team gateway's per-user upstream servers (commands/serve-http-upstreams.ts). */
  perUser?: PerUserPorts;
}

/** The per-user entries of `serve --http`'s config, and what its definitions filter refused. */
export interface PerUserPorts {
  /** The `"gateway": {"upstreamAuth"}` entries and their problems, read once. */
  entries(): { perUser: ReadonlyMap<string, PerUserAuth>; problems: readonly string[] };
  /** Why an entry cannot be honoured, each said once; a start with any is refused. */
  readonly refusals: ReadonlySet<string>;
  /** The servers without those an entry cannot be honoured for. */
  filter(servers: ServerDefinition[]): ServerDefinition[];
}

/** The bridge a serving session was opened with; only a serving session has one. */
export function servingBridge(session: { readonly serving?: ServingPorts | undefined }): GatewayBridge {
  const bridge = session.serving?.bridge;
  if (!bridge) throw new Error('internal: serve ran in a session opened without its ports (commands/serve-ports.ts)');
  return bridge;
}
