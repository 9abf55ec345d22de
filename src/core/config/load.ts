/**
 * The public entry of the config layer: reads every source, validates, expands, applies policy,
 * trust and precedence, and returns the servers plus every problem found. Read only: nothing is
 * ever written to a user's file here.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { InputResolver } from '../ports.js';
import type { ApprovalLookup } from '../trust.js';
import { findNearestOffset } from './jsonc.js';
import { dedupeBySignature, shadowByName, type Ranked } from './merge.js';
import { evaluatePolicy, type Policy } from './policy.js';
import { resolveEntry, type ResolveContext } from './resolve.js';
import { validateServerEntry } from './schema.js';
import { signatureOf, stableHash } from './signature.js';
import { DISCOVERY_SOURCES, discoveryFile, readDiscovered, type DiscoverySource } from './sources/discovery.js';
import { readDynamic, type DynamicServer } from './sources/dynamic.js';
import { entriesAt, readDocument, type RawEntry, type SourceResult } from './sources/entry.js';
import { readManaged } from './sources/managed.js';
import { projectFile, readProject } from './sources/project.js';
import { readUserServers } from './sources/user.js';
import { readWorkspace, workspaceFile } from './sources/workspace.js';
import type { ConfigProblem, InProcessServerConfig, LoadedConfig, RemoteServerConfig, ServerDefinition, StdioServerConfig } from './types.js';

export type { DiscoverySource } from './sources/discovery.js';
export type { DynamicServer } from './sources/dynamic.js';
export { findEntryOffset } from './jsonc.js';

/** Everything `loadConfig` reads from; all machine state is injected so tests use temp dirs. */
export interface LoadOptions {
  /** Open workspace folders (absolute paths), in workspace order. */
  folders: readonly string[];
  /** Value of the `mcpHost.servers` setting. */
  userServers?: unknown;
  /** Managed (policy) file; empty or undefined: none. */
  managedPath?: string;
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
  /** false: workspace/project servers are disabled with reason `untrusted`. Default true. */
  trusted?: boolean;
  /** When given, workspace/project servers not approved for their current definition are disabled (`not-approved`). */
  approvals?: ApprovalLookup;
  /** `${userHome}`; default discovery.homeDir, then os.homedir(). */
  homeDir?: string;
  /**
   * Extra files in `.mcp.json` format (`mcpServers`), e.g. the CLI's `--config`: read in the dynamic
   * scope, in order, after the folders' files. A missing file reads as no servers (callers check).
   */
  configFiles?: readonly string[];
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
  const files: string[] = [];
  if (o.managedPath) files.push(o.managedPath);
  if (o.discovery?.enabled) {
    // The setting is user-edited: unknown source names are ignored rather than crashing the watcher.
    for (const s of DISCOVERY_SOURCES.filter((d) => (o.discovery!.sources ?? DISCOVERY_SOURCES).includes(d))) files.push(discoveryFile(s, discoveryOptions(o)));
  }
  for (const f of o.folders) files.push(workspaceFile(f), projectFile(f));
  return [...new Set(files)];
}

function validateInProcess(raw: RawEntry): { config?: InProcessServerConfig; problem?: ConfigProblem } {
  const c = raw.value as Partial<InProcessServerConfig>;
  if (typeof c.id === 'string' && c.id !== '' && typeof c.start === 'function') return { config: c as InProcessServerConfig };
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
function locate(problems: ConfigProblem[], texts: Map<string, string>): void {
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

/** Reads, validates and merges every config source. Never throws for bad input; see `problems`. */
export async function loadConfig(o: LoadOptions): Promise<LoadedConfig> {
  const env = o.env ?? process.env;
  const folders = [...o.folders];
  const onlyFolder = folders.length === 1 ? folders[0] : undefined;
  const home = homeOf(o);

  let policy: Policy | undefined;
  const results: SourceResult[] = [];
  if (o.managedPath) {
    const m = await readManaged(o.managedPath);
    policy = m.policy;
    results.push(m);
  }
  results.push(readUserServers(o.userServers, home));
  if (o.discovery?.enabled) results.push(await readDiscovered(o.discovery.sources ?? DISCOVERY_SOURCES, folders, discoveryOptions(o)));
  const ws = await Promise.all(folders.map((f) => readWorkspace(f)));
  const pj = await Promise.all(folders.map((f) => readProject(f)));
  results.push(...ws, ...pj);
  results.push(readDynamic(o.dynamic ?? [], folders[0] ?? home, onlyFolder));
  for (const file of o.configFiles ?? []) {
    const d = await readDocument(file, 'dynamic', false);
    const found = [...d.problems];
    const extra = d.doc ? entriesAt(d.doc, ['mcpServers'], { file, scope: 'dynamic', workspaceFolder: onlyFolder, baseDir: dirname(file), text: d.text }, found) : [];
    results.push({ entries: extra, problems: found, files: [file] });
  }

  const problems: ConfigProblem[] = results.flatMap((r) => r.problems);
  const files = new Set(results.flatMap((r) => r.files));
  const texts = new Map<string, string>();
  const entries = results.flatMap((r) => r.entries);
  for (const e of entries) if (e.text !== undefined) texts.set(e.source.file, e.text);

  // Validate everything first; a broken entry still claims its name, so fixing a typo never
  // flips the server to some other scope's definition in between.
  const valid: Valid[] = entries.map((raw, order) => {
    const folderIndex = (raw.source.scope === 'workspace' || raw.source.scope === 'project') && raw.source.folder !== undefined ? folders.indexOf(raw.source.folder) : undefined;
    const base = { name: raw.name, source: raw.source, order, folderIndex, raw };
    if (raw.inProcess) {
      const r = validateInProcess(raw);
      if (r.problem) problems.push(r.problem);
      return { ...base, config: r.config };
    }
    const v = validateServerEntry(raw.value, { file: raw.source.file, jsonPath: raw.source.jsonPath, name: raw.name, scope: raw.source.scope });
    if (!v.ok) {
      problems.push(...v.problems);
      return base;
    }
    problems.push(...v.warnings);
    return { ...base, config: v.config };
  });

  const shadow = shadowByName(valid);
  problems.push(...shadow.problems);

  const ctx: ResolveContext = {
    vars: { env, folders, userHome: home },
    onlyFolder,
    policy,
    inputs: o.inputs,
    inputCache: new Map(),
    envFiles: new Set(),
    trusted: o.trusted,
    approvals: o.approvals,
  };
  const defs: (ServerDefinition & Ranked)[] = [];
  // Sequential: resolving inputs may prompt the user, one question at a time.
  for (const v of shadow.kept) {
    if (!v.config) continue;
    let def: ServerDefinition | undefined;
    if (v.config.type === 'inprocess') {
      const c = v.config;
      const denied = evaluatePolicy(policy, v.name, c);
      if (!denied.allowed) {
        problems.push({ severity: 'error', code: 'policy-denied', message: `Server "${v.name}" is blocked by the policy in ${policy!.file}: ${denied.reason}.`, file: v.source.file, jsonPath: v.source.jsonPath, server: v.name, scope: 'dynamic' });
        continue;
      }
      def = { name: v.name, config: c, source: v.source, signature: signatureOf(c), hash: stableHash(c) };
    } else {
      const r = await resolveEntry(v.raw, v.config, ctx);
      problems.push(...r.problems);
      def = r.def;
    }
    if (def) defs.push({ ...def, order: v.order, folderIndex: v.folderIndex });
  }

  const dedupe = dedupeBySignature(defs.map((d) => ({ ...d, disabled: d.config.disabled === true })));
  problems.push(...dedupe.problems);
  for (const f of ctx.envFiles) files.add(f);
  locate(problems, texts);

  const servers: ServerDefinition[] = dedupe.kept
    .sort((a, b) => a.order - b.order)
    .map(({ order: _o, folderIndex: _f, disabled: _d, ...def }) => def);
  return { servers, problems, files: [...files] };
}
