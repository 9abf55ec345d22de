/**
 * The gateway `serve` runs, its own (serve.ts) or the folder's shared one (serve-shared.ts): the
 * config read and followed, its servers handed to the host, and each agent served over a stdio
 * transport (the process's own, or a session's socket).
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { needsApproval, type ServerDefinition } from '../../core/config/index.js';
import type { Server, Transport } from '@modelcontextprotocol/server';
import type { Disposable, Logger } from '../../core/ports.js';
import {
  discoveryDir,
  FAST_PATH_ENV,
  Gateway,
  GatewayBridge,
  gatewayFeatures,
  GatewayViews,
  readDiscovery,
  readGatewayViewSettings,
  SharedWatches,
  tapListen,
  type AgentView,
  type GatewayViewSettings,
} from '../../core/gateway/index.js';
import { serveSignIn } from './serve-sign-in.js';
import type { ParsedArgs } from '../args.js';
import { usageError } from '../errors.js';
import { stderrLogger } from '../ports.js';
import type { Session } from '../session.js';
import { VERSION } from '../../core/version.js';
import { startTelemetry } from '../telemetry.js';

/**
 * A list asked for before every server has settled waits for them, this long at most from serve's
 * start: agents that list once and ignore list_changed (Claude Code in print mode) still see every
 * server that connects in a normal time, also on a loaded machine (1 s was too short there), while
 * one that hangs costs the first list 5 s instead of the connect timeout (30 s). `initialize` is
 * answered at once (agents give up on a slow one: the Inspector after 15 s, Codex sooner), and
 * the 5 s stay inside Codex's 10 s start-up budget for initialize and the first list.
 */
const FIRST_LIST_WAIT_MS = 5000;

/** What `--profile` and `--tools` ask for. */
export function viewOf(a: ParsedArgs): AgentView {
  return {
    ...(a.profile !== undefined ? { profile: a.profile } : {}),
    ...(a.tools === 'all' ? { tools: 'full' as const } : a.tools === 'search' ? { tools: 'search' as const } : {}),
  };
}

/** The view settings of the user's settings.json; a `--profile` they do not define is a usage error. */
export function serveSettings(session: Session, a: ParsedArgs): GatewayViewSettings {
  const settings = readGatewayViewSettings((key) => session.userSettings[`mcpHost.${key}`]);
  if (a.profile !== undefined && !Object.hasOwn(settings.profiles, a.profile)) {
    const names = Object.keys(settings.profiles);
    throw usageError(
      `--profile ${a.profile}: no such profile`,
      names.length
        ? `Profiles (mcpHost.gateway.profiles): ${names.join(', ')}.`
        : 'Define profiles in mcpHost.gateway.profiles of the user settings.json.',
    );
  }
  return settings;
}

/**
 * Serves one agent over `transport` until it closes. The SDK decides the era from the opening
 * message (server/discover or initialize) and keeps one gateway server for the connection; a
 * modern one hears list changes on subscriptions/listen.
 */
export function serveAgent(gateway: Gateway, view: AgentView, transport: Transport, logger: Logger): StdioServerHandle {
  let pinned: Server | undefined;
  const watches = new SharedWatches((uris) =>
    gateway.watchResources(uris, (uri) => void pinned?.sendResourceUpdated({ uri }).catch(() => undefined), view),
  );
  return serveStdio((ctx) => (pinned = gateway.createServer(ctx.era, false, view)), {
    // Updates on the resources a listen names are sent by the connection's server; the SDK routes them onto the stream.
    // A 2025-11-25 agent's tool calls are taken in front of its server (the gateway's fast path),
    // inside its telemetry: whatever answers an agent's frame is within its spans.
    transport: gateway.withFastPath(
      gateway.observeAgent(tapListen(transport, (uris) => watches.add(uris))),
      () => pinned,
    ),
    onerror: (err) => logger.debug(`serve: ${err.message}`),
  });
}

/** Stops following the config, the agents' connections and the gateway (its servers stop with the session). */
export async function stopServeGateway(
  session: Session,
  gateway: Gateway,
  served: readonly StdioServerHandle[],
): Promise<void> {
  session.registry.dispose();
  const paths = gateway.paths();
  stderrLogger(session.io.env, session.io.stderr).debug(
    `serve: agents' forwarded requests: ${paths.fast} on the fast path, ${paths.full} on the full path`,
  );
  // A broken stdout may never take the goodbye: the servers' stop (the caller's dispose) must not wait on it.
  await Promise.race([
    Promise.all([...served.map((s) => s.close().catch(() => undefined)), gateway.dispose()]),
    new Promise((resolve) => setTimeout(resolve, 2000).unref()),
  ]);
}

/** Servers the config offers that serve exposes: not `--exclude`d, the folder's only when allowed; says why once. */
function exposedServers(io: Session['io'], a: ParsedArgs): (all: ServerDefinition[]) => ServerDefinition[] {
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

/**
 * The gateway of `serve` (its own, or the folder's shared one: `privateResults`), with its servers
 * starting: the config read, followed, and its servers handed to the host.
 */
export async function openServeGateway(
  session: Session,
  a: ParsedArgs,
  o: { privateResults?: boolean } = {},
): Promise<{ gateway: Gateway; logger: Logger }> {
  const io = session.io;
  const logger = stderrLogger(io.env, io.stderr);
  // The OTEL_* environment only (serve reads no "gateway" object); before the host exists (session.ts).
  session.telemetry = await startTelemetry(io.env, { defaultServiceName: 'mcp-host', warn: (l) => logger.warn(l) });
  // No UI here: a question from a server goes to the agent or is declined.
  const bridge = new GatewayBridge();
  session.hostExtras = { elicitation: bridge };
  session.featuresFor = (base) => bridge.featureOptions(base);
  session.reportProblems();
  // Entries pointing at a running editor's gateway would expose the same servers twice, and an
  // `mcp-host serve` entry would start this command inside itself.
  // Admission holds those back (config/admit.ts); the running gateways are found again on each read.
  const exposed = exposedServers(io, a);
  const excluded = new Set(a.exclude);
  session.ownGateways = async () => (await readDiscovery(discoveryDir(io.env))).map((g) => g.url);
  // Tools switched off for this workspace (tree checkboxes in the editor) are not offered to agents either.
  const tools = session.toolFilter;
  // Tool search, profiles and result limits from the editor's user settings, so both offer the same.
  const settings = serveSettings(session, a);
  for (const p of settings.problems) io.stderr(`mcp-host serve: ${p}\n`);
  const gateway = new Gateway({
    host: session.host,
    bridge,
    logger,
    serverInfo: { name: 'mcp-host-serve', version: VERSION },
    isServerExposed: (server) => !excluded.has(server),
    features: gatewayFeatures(session.host),
    isToolEnabled: (server, tool) => tools.isEnabled(server, tool),
    views: new GatewayViews({ toolSearch: () => settings.toolSearch, profiles: () => settings.profiles }),
    resultLimit: () => (a.maxResultTokens !== undefined ? { maxTokens: a.maxResultTokens } : settings.resultLimit),
    signIn: serveSignIn(session, logger),
    frontEnd: 'serve',
    firstListWaitMs: FIRST_LIST_WAIT_MS,
    fastPath: io.env[FAST_PATH_ENV] !== '0',
    ...(o.privateResults ? { privateResults: true } : {}),
    ...(session.telemetry ? { telemetry: session.telemetry.telemetry } : {}),
  });
  // The registry's reads (this first one, and each after an edit) go to the gateway's host; a file
  // that turns invalid keeps its servers running from the last good read (core/config/last-good.ts).
  let first = true;
  session.onConfig = (servers) => {
    if (!first) session.reportProblems();
    first = false;
    session.host.setDefinitions(exposed(servers));
  };
  await session.registry.readmit();
  // Follow edits of the config files: agents hear list_changed as servers come and go.
  session.follow(watchFiles);
  return { gateway, logger };
}

/**
 * Watches the folders of `files` (a file may not exist yet) and calls `onChange` on each event of
 * one of them; the registry collects a burst of them into one read.
 */
function watchFiles(files: readonly string[], onChange: () => void): Disposable {
  const byDir = new Map<string, Set<string>>();
  for (const f of files) {
    const set = byDir.get(dirname(f)) ?? new Set<string>();
    set.add(basename(f));
    byDir.set(dirname(f), set);
  }
  const watchers: FSWatcher[] = [];
  for (const [dir, names] of byDir) {
    try {
      const w = watch(dir, (_event, name) => {
        if (name !== null && !names.has(name.toString())) return;
        onChange();
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // The folder does not exist (e.g. no .vscode): nothing to follow there.
    }
  }
  return { dispose: () => watchers.forEach((w) => w.close()) };
}
