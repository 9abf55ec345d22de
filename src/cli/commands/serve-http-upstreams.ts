/**
 * The team gateway's per-user upstream servers (`"gateway": {"upstreamAuth"}`, core/gateway's
 * upstream-pool.ts): which servers the config names per user, the definitions filter that leaves
 * out an entry the gateway cannot honour, and the pool of per-person clients. Opened with the
 * session's ports (serve-ports.ts), so the filter applies from the host's first set of servers.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { parseConfigText, type ServerDefinition } from '../../core/config/index.js';
import {
  parseUpstreamAuth,
  PerUserPool,
  perUserHost,
  perUserRefusal,
  type PerUserAuth,
} from '../../core/gateway/index.js';
import { VERSION } from '../../core/version.js';
import type { ParsedArgs } from '../args.js';
import { usageError } from '../errors.js';
import type { Io } from '../io.js';
import type { Session } from '../session.js';
import type { PerUserPorts } from '../serving.js';

/** The `"gateway"` objects of the `--config` files, unparsed (the files exist: Session.open checked them). */
export function gatewayDocs(io: Io, a: ParsedArgs): { file: string; value: unknown }[] {
  return a.configs.map((f) => {
    const file = resolve(io.cwd, f);
    const parsed = parseConfigText(readFileSync(file, 'utf8'), file, { jsonc: true });
    return { file, value: (parsed.value as { gateway?: unknown } | undefined)?.gateway };
  });
}

/**
 * The per-user entries, read on first use, and the filter that leaves out a server an entry cannot
 * be honoured for (a stdio server, no such server): checked at start (refuseStart), later left out.
 */
export function perUserPorts(io: Io, a: ParsedArgs): PerUserPorts {
  let read: { perUser: Map<string, PerUserAuth>; problems: string[] } | undefined;
  const entries = (): { perUser: Map<string, PerUserAuth>; problems: string[] } =>
    (read ??= parseUpstreamAuth(gatewayDocs(io, a), io.env));
  const refusals = new Set<string>();
  return {
    entries,
    refusals,
    filter: (servers: ServerDefinition[]): ServerDefinition[] => {
      const bad = new Set<string>();
      for (const p of entries().perUser.values()) {
        const why = perUserRefusal(p, servers.find((d) => d.name === p.server)?.config.type);
        if (!why) continue;
        bad.add(p.server);
        if (!refusals.has(why)) io.stderr(`mcp-host serve --http: ${why}\n`);
        refusals.add(why);
      }
      return servers.filter((d) => !bad.has(d.name));
    },
  };
}

/** The pool of per-person clients, and the host as the gateway sees it: per-user servers called through the pool. */
export function perUserUpstreams(
  session: Session,
  perUser: ReadonlyMap<string, PerUserAuth>,
  issuer: string,
): { pool: PerUserPool; upstream: Session['host'] } {
  const telemetry = session.telemetry?.telemetry;
  const pool = new PerUserPool(perUser, (name) => urlOf(session, name), issuer, {
    clientInfo: { name: 'mcp-host-gateway', version: VERSION },
    // Observed as the host's own connections are: one trace from the agent to the upstream.
    ...(telemetry
      ? {
          wrapTransport: (server: string, t: Transport) => {
            const d = session.host.server(server)?.definition;
            return d ? telemetry.upstream(d, t) : t;
          },
        }
      : {}),
  });
  return { pool, upstream: perUser.size > 0 ? perUserHost(session.host, pool) : session.host };
}

/** A per-user entry the config cannot honour stops the start, after closing what was opened. */
export async function refuseStart(
  refusals: ReadonlySet<string>,
  opened: ({ dispose(): Promise<void> } | undefined)[],
): Promise<never> {
  for (const o of opened) await o?.dispose();
  throw usageError(
    `serve --http: ${[...refusals][0]}`,
    'Per-user credentials are for HTTP servers (docs/team-gateway.md, "Upstream credentials").',
  );
}

function urlOf(session: Session, name: string): string | undefined {
  const c = session.host.server(name)?.definition.config;
  return c?.type === 'http' ? c.url : undefined;
}
