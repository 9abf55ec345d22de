/**
 * `mcp-host serve --http`: the team gateway (core/gateway/service/). Servers come only from files
 * the operator owns: the `--config` files, the user's settings and the managed file; a folder's
 * `.mcp.json` / `.vscode/mcp.json` never, whatever `--allow-project-servers` says (the gateway runs
 * for other people: a repository's commands are nobody's consent here). Who signs people in, the
 * profiles, the audit file and telemetry are the `"gateway"` object of the `--config` files. SIGTERM
 * drains: open calls finish (up to `gateway.drainSeconds`), new requests get 503, then exit 0.
 */
import { resolve } from 'node:path';
import {
  AuditLog,
  auditedHost,
  currentCaller,
  MemoryRateLimiter,
  Gateway,
  gatewayFeatures,
  GatewayService,
  GatewayViews,
  type GatewayServiceOptions,
  isLoopbackHost,
  listenRefusal,
  parseServiceConfig,
  perUserFeatures,
  type PerUserAuth,
  readGatewayViewSettings,
  type ListenOptions,
  type ServiceConfig,
} from '../../core/gateway/index.js';
import type { ParsedArgs } from '../args.js';
import { CliError, EXIT, usageError, type ExitCode } from '../errors.js';
import { stderrLogger } from '../ports.js';
import type { Session } from '../session.js';
import { servingBridge } from '../serving.js';
import { VERSION } from '../../core/version.js';
import { startTelemetry, type CliTelemetry } from '../telemetry.js';
import type { Io } from '../io.js';
import type { Logger } from '../../core/ports.js';
import type { Cluster } from '../../core/cluster/index.js';
import { gatewayDocs, perUserUpstreams, refuseStart } from './serve-http-upstreams.js';

/** The `"gateway"` objects of the `--config` files, parsed (the files exist: Session.open checked them). */
function parseGatewayObjects(io: Io, a: ParsedArgs): ReturnType<typeof parseServiceConfig> {
  return parseServiceConfig(gatewayDocs(io, a));
}

/**
 * The team gateway's telemetry (the `"gateway": {"telemetry"}` object, else OTEL_*), started as
 * its session opens (serve-ports.ts), so the host wraps its launches' transports from the first.
 */
export function serveHttpTelemetry(io: Io, a: ParsedArgs): () => Promise<CliTelemetry | undefined> {
  return () =>
    startTelemetry(io.env, {
      ...parseGatewayObjects(io, a).config.telemetry,
      defaultServiceName: 'mcp-host-gateway',
      warn: (l) => stderrLogger(io.env, io.stderr).warn(l),
    });
}

/** The `"gateway"` objects of the `--config` files; a usage error when sign-in is not configured. */
function readServiceConfig(
  session: Session,
  a: ParsedArgs,
): ServiceConfig & { perUser: ReadonlyMap<string, PerUserAuth> } {
  const { config, problems } = parseGatewayObjects(session.io, a);
  const upstream = session.serving?.perUser?.entries() ?? { perUser: new Map(), problems: [] };
  for (const p of [...problems, ...upstream.problems]) session.io.stderr(`mcp-host serve --http: ${p}\n`);
  if (!config.auth)
    throw usageError(
      'serve --http: no authorization server configured',
      'Name it in the "gateway": {"auth": {"issuer": …}} object of a --config file (docs/team-gateway.md).',
    );
  return { ...config, perUser: upstream.perUser };
}

function listenOptions(a: ParsedArgs): ListenOptions {
  const o: ListenOptions = {
    ...(a.host !== undefined ? { host: a.host } : {}),
    ...(a.port !== undefined ? { port: a.port } : {}),
    ...(a.tlsCert !== undefined && a.tlsKey !== undefined ? { tls: { certFile: a.tlsCert, keyFile: a.tlsKey } } : {}),
    ...(a.allowRemote ? { allowRemote: true } : {}),
    ...(a.insecureHttp ? { insecureHttp: true } : {}),
  };
  const refusal = listenRefusal(o);
  if (refusal) throw usageError(`serve --http: ${refusal}`, 'See docs/team-gateway.md, "Securing it".');
  return o;
}

/**
 * The Redis the processes share, when configured; loaded here only, by `import()`, so a gateway
 * without one (and the extension) never loads the client. Unreachable at start: a runtime error
 * naming it, password redacted (an operator who configured it does not want a process on its own).
 */
async function joinCluster(config: ServiceConfig, logger: Logger): Promise<Cluster | undefined> {
  if (!config.redis) return undefined;
  const { startCluster } = await import('../../core/cluster/index.js');
  try {
    return await startCluster(config.redis, logger);
  } catch (err) {
    throw new CliError(
      EXIT.connection,
      `serve --http: ${err instanceof Error ? err.message : String(err)}`,
      'Start Redis, or fix "gateway.redis.url" in the --config file (docs/team-gateway.md, "Several processes: Redis").',
    );
  }
}

/** The rate limit per person, shared through Redis when there is one; none when not configured. */
function rateLimit(
  config: ServiceConfig,
  cluster: Cluster | undefined,
  audit: AuditLog | undefined,
): Pick<GatewayServiceOptions, 'rateLimit' | 'onRateLimited'> {
  if (!config.rateLimit) return {};
  const limiter = cluster ? cluster.rateLimiter(config.rateLimit) : new MemoryRateLimiter(config.rateLimit);
  return {
    rateLimit: limiter,
    onRateLimited: (sub, call) =>
      audit?.write({
        time: new Date().toISOString(),
        sub,
        server: '',
        kind: call.kind,
        name: call.name,
        outcome: 'rate-limited',
        durationMs: 0,
      }),
  };
}

export async function serveHttp(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const io = session.io;
  const logger = stderrLogger(io.env, io.stderr);
  if (a.profile !== undefined || a.tools !== undefined)
    throw usageError(
      `serve --http: ${a.profile !== undefined ? '--profile' : '--tools'} is chosen per agent here`,
      'An agent asks for /mcp/<profile> and ?tools=all|search; who may use a profile is its "users" and "groups".',
    );
  const listen = listenOptions(a);
  const config = readServiceConfig(session, a);
  // Off loopback the listening address (0.0.0.0, a pod's IP) is not what agents use: tokens name the public URL.
  if (!isLoopbackHost(listen.host ?? '127.0.0.1') && config.auth!.resource === undefined)
    throw usageError(
      'serve --http: off loopback, the gateway needs its public URL as "gateway.auth.resource"',
      'The URL agents use, e.g. "https://mcp.example.com/mcp": tokens must name it as their audience.',
    );
  const cluster = await joinCluster(config, logger);
  // Opened with serve's ports (serve-ports.ts): the operator's servers, their questions to the agent.
  const bridge = servingBridge(session);
  const excluded = new Set(a.exclude);
  const settings = readGatewayViewSettings((key) => session.userSettings[`mcpHost.${key}`]);
  for (const p of settings.problems) io.stderr(`mcp-host serve --http: ${p}\n`);
  // The operator's file names the profiles people get; the user settings' stay for what it does not name.
  const profiles = { ...settings.profiles, ...config.profiles };
  const audit = config.auditLog !== undefined ? new AuditLog(resolve(io.cwd, config.auditLog)) : undefined;
  // Per-user servers are called as each caller (upstream-pool.ts); audited outside that, so a refused exchange is recorded.
  const { pool, upstream } = perUserUpstreams(session, config.perUser, config.auth!.issuer);
  const gateway = new Gateway({
    host: audit ? auditedHost(upstream, audit) : upstream,
    bridge,
    logger,
    serverInfo: { name: 'mcp-host-gateway', version: VERSION },
    isServerExposed: (server) => !excluded.has(server),
    // Through the per-user proxy: a per-user server's completions are the caller's, its subscriptions refused.
    features: perUserFeatures(gatewayFeatures(upstream), pool),
    views: new GatewayViews({ toolSearch: () => settings.toolSearch, profiles: () => profiles }),
    resultLimit: () => (a.maxResultTokens !== undefined ? { maxTokens: a.maxResultTokens } : settings.resultLimit),
    // No `signIn`: one person's sign-in to an upstream server would serve everyone. Servers that need
    // one are signed in by the operator (`mcp-host auth SERVER`) and shared as such, or not shown.
    frontEnd: 'serve',
    ...(session.telemetry ? { telemetry: session.telemetry.telemetry } : {}),
    // Several processes: any of them reads a page another cut; each page its own person's only.
    ...(cluster ? { results: cluster.results(() => currentCaller.getStore()?.sub) } : {}),
  });
  const service = await GatewayService.start({
    gateway,
    logger,
    auth: config.auth!,
    profiles: () => profiles,
    listen,
    ...(cluster ? { shared: cluster } : {}),
    ...rateLimit(config, cluster, audit),
  });
  const stop = session.stopSignal();
  // The first read (and each after an edit) reaches the host, its problems stderr.
  session.registry.onDidChange(() => session.reportProblems());
  await session.registry.readmit();
  const refusals = session.serving?.perUser?.refusals;
  if (refusals && refusals.size > 0)
    await refuseStart(refusals, [service, gateway, pool, cluster && { dispose: () => cluster.close() }]);
  service.markReady();
  // Said whatever MCP_HOST_LOG is: where the gateway is, for the operator and for scripts.
  io.stderr(`mcp-host serve --http: listening on ${service.url} (resource ${service.resource})\n`);
  const signal = await stop;
  io.stderr(`mcp-host serve --http: ${signal}: draining\n`);
  const cut = await service.drain(config.drainMs, config.drainGraceMs);
  await gateway.dispose();
  await pool.dispose();
  await cluster?.close();
  await audit?.close();
  io.stderr(`mcp-host serve --http: stopped${cut ? ` (${cut} call(s) cut off by the drain deadline)` : ''}\n`);
  return EXIT.ok;
}
