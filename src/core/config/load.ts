/**
 * The public entry of the config layer, in pipeline order: `readConfig` reads every source,
 * validates, expands and merges (no gating, no prompts, no file an entry points at); `admit`
 * (admit.ts) decides what runs; `resolveAdmitted` reads env files and asks for inputs of admitted
 * servers only. `loadConfig` runs all three. Read only: nothing is ever written to a user's file.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { InputResolver } from '../ports.js';
import { admit, runs, type AdmitContext } from './admit.js';
import { findNearestOffset } from './jsonc.js';
import { dedupeBySignature, shadowByName, type Ranked } from './merge.js';
import type { Policy } from './policy.js';
import { checkRegistry } from './policy-registry.js';
import { combinePolicies, managedPolicyFiles } from './policy-scope.js';
import { prepareEntry, resolveDefinition, type PrepareContext, type ResolveContext } from './resolve.js';
import { validateServerEntry } from './schema.js';
import { mergeSandboxSettings, parseSandboxSettings } from './sandbox-settings.js';
import { hostPrivateDirs } from '../user-dir.js';
import { signatureOf, stableHash } from './signature.js';
import { DISCOVERY_SOURCES, discoveryFile, readDiscovered, type DiscoverySource } from './sources/discovery.js';
import { readDynamic, type DynamicServer } from './sources/dynamic.js';
import { entriesAt, readDocument, type RawEntry, type SourceResult } from './sources/entry.js';
import { readManaged } from './sources/managed.js';
import { projectFile, readProject } from './sources/project.js';
import { copilotProjectFile, readCopilotProject } from './sources/other-hosts.js';
import { readUserServers } from './sources/user.js';
import { teamGatewayResult } from './sources/team-gateway.js';
import { readWorkspace, workspaceFile } from './sources/workspace.js';
import type {
  ConfigProblem,
  InProcessServerConfig,
  LoadedConfig,
  RemoteServerConfig,
  ServerDefinition,
  StdioServerConfig,
} from './types.js';

export type { DiscoverySource } from './sources/discovery.js';
export type { DynamicServer } from './sources/dynamic.js';
export { findEntryOffset } from './jsonc.js';

/** Everything `loadConfig` reads from; all machine state is injected so tests use temp dirs. */
export interface LoadOptions {
  /** Open workspace folders (absolute paths), in workspace order. */
  folders: readonly string[];
  /** Value of the `mcpHost.servers` setting. */
  userServers?: unknown;
  /** Value of the `mcpHost.teamGateway` setting (sources/team-gateway.ts); a managed `teamGateway` wins. */
  userTeamGateway?: unknown;
  /** Value of the `mcpHost.sandbox` setting: the top-level `sandbox` of the user's servers. */
  userSandbox?: unknown;
  /** Managed (policy) file of the setting; empty or undefined: none. The system file applies regardless. */
  managedPath?: string;
  /** The system policy file; undefined: the OS default (policy-scope.ts), '': none (tests). */
  systemManagedPath?: string;
  discovery?: {
    enabled: boolean;
    /** Default: all of them. */
    sources?: readonly DiscoverySource[];
    /** Default: os.homedir(). */
    homeDir?: string;
    /** Default: process.platform. */
    platform?: NodeJS.Platform;
  };
  /** Servers registered at run time (highest precedence). */
  dynamic?: readonly DynamicServer[];
  /** For `${VAR}`; default process.env. */
  env?: Record<string, string | undefined>;
  /** For `${input:id}`; without it such servers are reported as unresolved. */
  inputs?: InputResolver;
  /** `${userHome}`; default discovery.homeDir, then os.homedir(). */
  homeDir?: string;
  /**
   * Extra files in `.mcp.json` format (`mcpServers`), e.g. the CLI's `--config`: read in the dynamic
   * scope, in order, after the folders' files. A missing file reads as no servers (callers check).
   */
  configFiles?: readonly string[];
}

/** `loadConfig`: reading plus what admission needs (trust defaults to true; the policy comes from the managed file). */
export type LoadAndAdmitOptions = LoadOptions & Partial<Omit<AdmitContext, 'policy'>>;

/** What `readConfig` found: definitions not yet admitted nor resolved, plus what resolving needs. */
export interface ReadConfig extends LoadedConfig {
  /** Raw entries by server name: declared inputs and base folders for the resolve stage. */
  entries: ReadonlyMap<string, RawEntry>;
  prepare: PrepareContext;
  /** File texts, to give later problems a line and column. */
  texts: ReadonlyMap<string, string>;
  /**
   * Precedence of each server (reading order, folder index) for the dedupe in `resolveAdmitted`:
   * dedupe waits for admission so a held-back entry never shadows a lower-scope one that runs.
   */
  ranks: ReadonlyMap<string, Ranked>;
}

type Valid = Ranked & { raw: RawEntry; config?: StdioServerConfig | RemoteServerConfig | InProcessServerConfig };

function homeOf(o: LoadOptions): string {
  return o.homeDir ?? o.discovery?.homeDir ?? homedir();
}

function discoveryOptions(o: LoadOptions) {
  return { homeDir: homeOf(o), platform: o.discovery?.platform ?? process.platform, env: o.env ?? process.env };
}

/** The config files to watch (whether or not they exist yet); env files are in `LoadedConfig.files`. */
export function configFilesToWatch(o: LoadOptions): string[] {
  const files: string[] = [...managedPolicyFiles({ ...o, platform: o.discovery?.platform })];
  if (o.discovery?.enabled) {
    // The setting is user-edited: unknown source names are ignored rather than crashing the watcher.
    for (const s of DISCOVERY_SOURCES.filter((d) => (o.discovery!.sources ?? DISCOVERY_SOURCES).includes(d)))
      files.push(discoveryFile(s, discoveryOptions(o)));
  }
  for (const f of o.folders) files.push(workspaceFile(f), copilotProjectFile(f), projectFile(f));
  return [...new Set(files)];
}

function validateInProcess(raw: RawEntry): { config?: InProcessServerConfig; problem?: ConfigProblem } {
  const c = raw.value as Partial<InProcessServerConfig>;
  if (typeof c.id === 'string' && c.id !== '' && typeof c.start === 'function')
    return { config: c as InProcessServerConfig };
  return {
    problem: {
      severity: 'error',
      code: 'schema',
      message: `In-process server "${raw.name}" needs an "id" (a non-empty string) and a "start(transport)" function.`,
      file: raw.source.file,
      jsonPath: raw.source.jsonPath,
      server: raw.name,
      scope: 'dynamic',
    },
  };
}

/** Adds line/column to problems that point into a file whose text was read. */
function locate(problems: ConfigProblem[], texts: ReadonlyMap<string, string>): void {
  for (const p of problems) {
    if (p.line !== undefined) continue;
    const text = texts.get(p.file);
    if (text === undefined || p.jsonPath.length === 0) continue;
    const loc = findNearestOffset(text, p.jsonPath);
    if (loc) {
      p.line = loc.line;
      p.column = loc.column;
    }
  }
}

/**
 * Adds the file's top-level `sandbox` to a stdio entry's own (both VS Code's shape). A broken one is
 * reported once per file and ignored: servers with `sandboxEnabled` still run sandboxed, with less.
 */
function withFileSandbox<C extends StdioServerConfig | RemoteServerConfig>(
  config: C,
  raw: RawEntry,
  problems: ConfigProblem[],
  checked: Set<string>,
): C {
  if (config.type !== 'stdio' || raw.fileSandbox === undefined) return config;
  const parsed = parseSandboxSettings(raw.fileSandbox);
  if (!parsed.ok) {
    if (!checked.has(raw.source.file)) {
      checked.add(raw.source.file);
      problems.push({
        severity: 'error',
        code: 'schema',
        message: `${parsed.message}; it is ignored (sandboxed servers get only the default rules).`,
        file: raw.source.file,
        jsonPath: raw.source.file.startsWith('settings:') ? [] : ['sandbox'],
        scope: raw.source.scope,
      });
    }
    return config;
  }
  return { ...config, sandbox: mergeSandboxSettings(parsed.value, config.sandbox) };
}

/** A `--config FILE` (`mcpServers`), read as dynamic scope. */
async function readConfigFile(file: string, onlyFolder: string | undefined): Promise<SourceResult> {
  const d = await readDocument(file, 'dynamic', false);
  const found = [...d.problems];
  const entries = d.doc
    ? entriesAt(
        d.doc,
        ['mcpServers'],
        { file, scope: 'dynamic', workspaceFolder: onlyFolder, baseDir: dirname(file), text: d.text },
        found,
      )
    : [];
  return { entries, problems: found, files: [file] };
}

/** The managed files in authority order; the first that names a team gateway decides it, broken or not (null). */
async function readManagedFiles(
  o: LoadOptions,
  env: Record<string, string | undefined>,
): Promise<{ results: SourceResult[]; layers: Policy[]; teamGateway?: RawEntry | null }> {
  const results: SourceResult[] = [];
  const layers: Policy[] = [];
  let teamGateway: RawEntry | null | undefined;
  for (const file of managedPolicyFiles({ ...o, platform: o.discovery?.platform, env })) {
    const m = await readManaged(file);
    if (m.policy) layers.push(m.policy);
    if (teamGateway === undefined) teamGateway = m.teamGateway;
    results.push(m);
  }
  return { results, layers, ...(teamGateway !== undefined ? { teamGateway } : {}) };
}

/** Load stage: reads, validates and merges every config source. Never throws for bad input; see `problems`. */
export async function readConfig(o: LoadOptions): Promise<ReadConfig> {
  const env = o.env ?? process.env;
  const folders = [...o.folders];
  const onlyFolder = folders.length === 1 ? folders[0] : undefined;
  const home = homeOf(o);

  const managed = await readManagedFiles(o, env);
  const results: SourceResult[] = [...managed.results];
  const team = managed.teamGateway;
  let policy = combinePolicies(managed.layers);
  const user = readUserServers(o.userServers, home);
  if (o.userSandbox !== undefined) for (const e of user.entries) e.fileSandbox = o.userSandbox;
  results.push(user, teamGatewayResult(team, o.userTeamGateway, home));
  if (o.discovery?.enabled)
    results.push(await readDiscovered(o.discovery.sources ?? DISCOVERY_SOURCES, folders, discoveryOptions(o)));
  const ws = await Promise.all(folders.map((f) => readWorkspace(f)));
  // Copilot CLI's .github/mcp.json first: within a folder the later file wins a name, and .mcp.json is the shared one.
  const gh = await Promise.all(folders.map((f) => readCopilotProject(f)));
  const pj = await Promise.all(folders.map((f) => readProject(f)));
  results.push(...ws, ...gh, ...pj);
  results.push(readDynamic(o.dynamic ?? [], folders[0] ?? home, onlyFolder));
  for (const file of o.configFiles ?? []) results.push(await readConfigFile(file, onlyFolder));

  const problems: ConfigProblem[] = results.flatMap((r) => r.problems);
  const files = new Set(results.flatMap((r) => r.files));
  const texts = new Map<string, string>();
  const entries = results.flatMap((r) => r.entries);
  for (const e of entries) if (e.text !== undefined) texts.set(e.source.file, e.text);

  const sandboxChecked = new Set<string>();
  // Validate everything first; a broken entry still claims its name, so fixing a typo never
  // flips the server to some other scope's definition in between.
  const valid: Valid[] = entries.map((raw, order) => {
    const folderIndex =
      (raw.source.scope === 'workspace' || raw.source.scope === 'project') && raw.source.folder !== undefined
        ? folders.indexOf(raw.source.folder)
        : undefined;
    const base = { name: raw.name, source: raw.source, order, folderIndex, raw };
    if (raw.inProcess) {
      const r = validateInProcess(raw);
      if (r.problem) problems.push(r.problem);
      return { ...base, config: r.config };
    }
    const v = validateServerEntry(raw.value, {
      file: raw.source.file,
      jsonPath: raw.source.jsonPath,
      name: raw.name,
      scope: raw.source.scope,
    });
    if (!v.ok) {
      problems.push(...v.problems);
      return base;
    }
    problems.push(...v.warnings);
    return { ...base, config: withFileSandbox(v.config, raw, problems, sandboxChecked) };
  });

  const shadow = shadowByName(valid);
  problems.push(...shadow.problems);

  const prepare: PrepareContext = { vars: { env, folders, userHome: home }, onlyFolder };
  const defs: (ServerDefinition & Ranked)[] = [];
  const rawByName = new Map<string, RawEntry>();
  for (const v of shadow.kept) {
    if (!v.config) continue;
    let def: ServerDefinition | undefined;
    if (v.config.type === 'inprocess') {
      const c = v.config;
      def = { name: v.name, config: c, source: v.source, signature: signatureOf(c), hash: stableHash(c) };
    } else {
      const r = prepareEntry(v.raw, v.config, prepare);
      problems.push(...r.problems);
      def = r.def;
    }
    if (def) {
      defs.push({ ...def, order: v.order, folderIndex: v.folderIndex });
      rawByName.set(def.name, v.raw);
    }
  }

  locate(problems, texts);

  const sorted = defs.sort((a, b) => a.order - b.order);
  const ranks = new Map<string, Ranked>(
    sorted.map((d) => [d.name, { name: d.name, source: d.source, order: d.order, folderIndex: d.folderIndex }]),
  );
  const servers: ServerDefinition[] = sorted.map(({ order: _o, folderIndex: _f, ...def }) => def);
  const registryChecks = await checkRegistry(servers, policy);
  if (policy && registryChecks.size) policy = { ...policy, registryChecks };
  return {
    servers,
    problems,
    files: [...files],
    ...(policy ? { policy } : {}),
    entries: rawByName,
    prepare,
    texts,
    ranks,
  };
}

/**
 * The same server under two names: among the definitions that run, the higher scope wins and the
 * others are dropped with a `duplicate` warning. Held-back definitions (awaiting approval,
 * untrusted, denied, disabled) neither win nor lose: they stay as rows and displace nothing.
 */
export function dedupeAdmitted(
  admitted: readonly ServerDefinition[],
  ranks: ReadonlyMap<string, Ranked>,
): { kept: ServerDefinition[]; problems: ConfigProblem[] } {
  const ranked = admitted.map((d, i) => ({ ...(ranks.get(d.name) ?? { order: i }), ...d, def: d, disabled: !runs(d) }));
  const r = dedupeBySignature(ranked);
  return { kept: r.kept.map((x) => x.def), problems: r.problems };
}

/**
 * Resolve stage over admitted definitions (`admit(read.servers, …)`): env files and inputs of the
 * servers that run; held ones pass through untouched. Returns the definitions for the host and
 * every problem (the read's, the resolve's, and one per server the policy blocks).
 */
export async function resolveAdmitted(
  read: ReadConfig,
  admitted: readonly ServerDefinition[],
  o: { inputs?: InputResolver } = {},
): Promise<LoadedConfig> {
  const ctx: ResolveContext = {
    ...read.prepare,
    policy: read.policy,
    inputs: o.inputs,
    inputCache: new Map(),
    envFiles: new Set(),
  };
  const dedupe = dedupeAdmitted(admitted, read.ranks);
  const problems: ConfigProblem[] = [...dedupe.problems];
  const servers: ServerDefinition[] = [];
  // Sequential: resolving inputs may prompt the user, one question at a time.
  for (const def of dedupe.kept) {
    const raw = read.entries.get(def.name);
    const r = raw ? await resolveDefinition(def, raw, ctx) : { def, problems: [] };
    problems.push(...r.problems);
    if (!r.def) continue;
    servers.push(r.def);
    const a = r.def.admission;
    if (a && !a.run && a.reason === 'policy') {
      problems.push({
        severity: 'error',
        code: 'policy-denied',
        message: a.message,
        file: def.source.file,
        jsonPath: def.source.jsonPath,
        server: def.name,
        scope: def.source.scope,
      });
    }
  }
  locate(problems, read.texts);
  return {
    servers,
    problems: [...read.problems, ...problems],
    files: [...new Set([...(read.files ?? []), ...ctx.envFiles])],
    ...(read.policy ? { policy: read.policy } : {}),
  };
}

/** The whole pipeline: read → admit → resolve. Trust defaults to true, no approvals are required unless given. */
export async function loadConfig(o: LoadAndAdmitOptions): Promise<LoadedConfig> {
  const read = await readConfig(o);
  const admitted = admit(read.servers, {
    trusted: o.trusted ?? true,
    approvals: o.approvals,
    userDisabled: o.userDisabled,
    manualStart: o.manualStart,
    policy: read.policy,
    ownGateways: o.ownGateways,
    folders: read.prepare.vars.folders,
    home: read.prepare.vars.userHome,
    privateDirs: o.privateDirs ?? hostPrivateDirs(),
  });
  return resolveAdmitted(read, admitted, { inputs: o.inputs });
}
