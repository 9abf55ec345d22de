/**
 * Turns a registry package or remote into one of our server entries. What the user must supply
 * (required environment variables, headers, arguments, URL variables) comes back as `variables`;
 * `buildEntry` fills them in. Secret values never go into the entry: they become a reference
 * (`${input:ID}` for the editor, `${ID}` read from the environment for the CLI) and the caller
 * keeps the value where secrets belong.
 */
import type {
  KeyValueInput,
  RegistryArgument,
  RegistryInput,
  RegistryPackage,
  RegistryRemote,
  RegistryServer,
} from './schema.js';
import { McpHostError } from '../errors.js';

export type InstallChoice = { kind: 'package'; index: number } | { kind: 'remote'; index: number };

/** A value the entry needs. `id` is usable as `${input:id}` and as an environment variable name. */
export interface InstallVariable {
  id: string;
  /** As the registry names it: the env variable, header, argument or URL variable. */
  name: string;
  /** What it is, for prompts: "environment variable API_KEY", "header X-Api-Key", "argument --port". */
  label: string;
  description?: string;
  isSecret: boolean;
  isRequired: boolean;
  default?: string;
  choices?: string[];
}

export interface InstallPlan {
  /** Entry with placeholders for the variables. */
  template: Record<string, unknown>;
  variables: InstallVariable[];
  /** One line for the user: "npx -y pkg@1.0.0" or "http https://…". */
  summary: string;
}

export class UnsupportedInstallError extends McpHostError {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedInstallError';
  }
}

/**
 * A registry is not the user: nothing it wrote may be expanded at connect. A `${GITHUB_TOKEN}`,
 * `${env:X}`, `${userHome}` or `${input:ID}` in a header, URL, argument or default would send the
 * user's secrets (or another server's stored input) to the entry's server, so any `${` in a value
 * from the registry refuses the whole entry; only the variables it declares become inputs.
 */
function noExpansion(value: string | undefined, where: string): void {
  if (value?.includes('${'))
    throw new UnsupportedInstallError(
      `The registry entry's ${where} contains "\${" (${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}). Values from a registry are never expanded by MCP Host, so this entry cannot be installed; add the server by hand if you trust it.`,
    );
}

function checkInput(input: RegistryInput, label: string): void {
  noExpansion(input.default, `default of ${label}`);
  for (const c of input.choices ?? []) noExpansion(c, `choice of ${label}`);
  noExpansion(input.value, label);
  for (const [name, v] of Object.entries((input as { variables?: Record<string, RegistryInput> }).variables ?? {}))
    checkInput(v, `variable ${name} of ${label}`);
}

const MARK = '\u0000';
const token = (id: string): string => `${MARK}${id}${MARK}`;
/** Placeholders as the user reads them in a summary: `<API_KEY>`. */
const showTokens = (s: string): string => s.replace(new RegExp(`${MARK}([^${MARK}]*)${MARK}`, 'g'), '<$1>');

/** A template value cut into what the registry fixed and the variables an install fills in. */
export type TemplatePart = { literal: string } | { variable: string };

/** `value` from a plan's template as parts (launch-match.ts compares a configured entry with them). */
export function templateParts(value: string): TemplatePart[] {
  // split with a capture group alternates fixed text (even indexes) and variable ids (odd ones).
  return value
    .split(new RegExp(`${MARK}([^${MARK}]*)${MARK}`))
    .map((p, i): TemplatePart => (i % 2 ? { variable: p } : { literal: p }))
    .filter((p) => !('literal' in p) || p.literal !== '');
}

/** Upper snake case, safe in `${input:…}` and as an environment variable name. */
function idOf(s: string): string {
  const id = s
    .replace(/^-+/, '')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .toUpperCase();
  return /^[A-Z_]/.test(id) ? id : `_${id}`;
}

/**
 * Input ids a config file already uses (`${input:ID}` references and `"id"` declarations): a new
 * entry's secret must not take one, or it would resolve to another server's stored value.
 */
export function inputIdsIn(text: string | undefined): Set<string> {
  const ids = new Set<string>();
  for (const m of (text ?? '').matchAll(/\$\{\s*input:\s*([^}\s]+)\s*\}|"id"\s*:\s*"([^"]+)"/g))
    ids.add((m[1] ?? m[2])!);
  return ids;
}

class Collector {
  readonly variables: InstallVariable[] = [];
  private readonly ids: Set<string>;

  constructor(taken: ReadonlySet<string> = new Set()) {
    this.ids = new Set(taken);
  }

  add(name: string, label: string, input: RegistryInput): string {
    let id = idOf(name);
    for (let n = 2; this.ids.has(id); n++) id = `${idOf(name)}_${n}`;
    this.ids.add(id);
    this.variables.push({
      id,
      name,
      label,
      description: input.description,
      isSecret: input.isSecret === true,
      isRequired: input.isRequired === true,
      default: input.default,
      choices: input.choices,
    });
    return token(id);
  }

  /** `value` with `{name}` replaced by placeholders of its variables; unknown `{…}` stay as written (the schema says so). */
  expand(value: string, variables: Record<string, RegistryInput> | undefined, label: string): string {
    if (!variables) return value;
    return value.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
      const v = variables[name];
      return v ? this.add(name, `${name} (in ${label})`, v) : whole;
    });
  }

  /** A value for a key/value input: fixed (with variables), or asked for. */
  keyValue(kv: KeyValueInput, label: string): string | undefined {
    noExpansion(kv.name, `name of ${label}`);
    checkInput(kv, label);
    if (kv.value !== undefined) return this.expand(kv.value, kv.variables, label);
    if (!kv.isRequired && !kv.isSecret && kv.default === undefined) return undefined;
    return this.add(kv.name, label, kv);
  }
}

function args(list: RegistryArgument[] | undefined, c: Collector): string[] {
  const out: string[] = [];
  for (const a of list ?? []) {
    const label = a.type === 'named' ? `argument ${a.name ?? ''}` : `argument ${a.valueHint ?? ''}`.trim();
    noExpansion(a.name, label);
    checkInput(a, label);
    let value: string | undefined;
    if (a.value !== undefined) value = c.expand(a.value, a.variables, label);
    else if (a.isRequired || a.default !== undefined) value = c.add(a.valueHint ?? a.name ?? 'ARG', label, a);
    if (a.type === 'named') {
      // Optional flags without a value are left out, as other hosts do; the user can add them later.
      if (a.name && value !== undefined) out.push(a.name, value);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}

function env(list: KeyValueInput[] | undefined, c: Collector): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list ?? []) {
    const v = c.keyValue(kv, `environment variable ${kv.name}`);
    if (v !== undefined) out[kv.name] = v;
  }
  return out;
}

function headers(list: KeyValueInput[] | undefined, c: Collector): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list ?? []) {
    const v = c.keyValue(kv, `header ${kv.name}`);
    if (v !== undefined) out[kv.name] = v;
  }
  return out;
}

function versioned(pkg: RegistryPackage, sep: string): string {
  return pkg.version && pkg.version !== 'latest' ? `${pkg.identifier}${sep}${pkg.version}` : pkg.identifier;
}

function packagePlan(pkg: RegistryPackage, taken?: ReadonlySet<string>): InstallPlan {
  const t = pkg.transport?.type ?? 'stdio';
  if (t !== 'stdio')
    throw new UnsupportedInstallError(
      `The ${pkg.registryType} package ${pkg.identifier} serves ${t} on a local port; MCP Host can only start packages that talk over stdio. Use one of its remotes, or start it yourself and add its URL.`,
    );
  noExpansion(pkg.identifier, 'package identifier');
  noExpansion(pkg.version, 'package version');
  noExpansion(pkg.runtimeHint, 'runtime hint');
  const c = new Collector(taken);
  const runtimeArgs = args(pkg.runtimeArguments, c);
  const environment = env(pkg.environmentVariables, c);
  const packageArgs = args(pkg.packageArguments, c);
  let command: string;
  let argv: string[];
  switch (pkg.registryType) {
    case 'npm':
      command = pkg.runtimeHint ?? 'npx';
      argv = [
        ...(runtimeArgs.length ? runtimeArgs : command === 'npx' ? ['-y'] : []),
        versioned(pkg, '@'),
        ...packageArgs,
      ];
      break;
    case 'pypi':
      command = pkg.runtimeHint ?? 'uvx';
      argv = [...runtimeArgs, versioned(pkg, '=='), ...packageArgs];
      break;
    case 'oci': {
      command = pkg.runtimeHint ?? 'docker';
      const image =
        pkg.version && !/:[^/]+$/.test(pkg.identifier) ? `${pkg.identifier}:${pkg.version}` : pkg.identifier;
      // `-e NAME` passes the variable from docker's own environment (our `env`) into the container.
      const envFlags = Object.keys(environment).flatMap((k) => ['-e', k]);
      argv = ['run', '-i', '--rm', ...runtimeArgs, ...envFlags, image, ...packageArgs];
      break;
    }
    case 'nuget':
      command = pkg.runtimeHint ?? 'dnx';
      argv = [...runtimeArgs, versioned(pkg, '@'), '--yes', ...(packageArgs.length ? ['--', ...packageArgs] : [])];
      break;
    default:
      throw new UnsupportedInstallError(
        `Packages from "${pkg.registryType}" cannot be installed by MCP Host yet (npm, pypi, oci and nuget can).`,
      );
  }
  const template: Record<string, unknown> = { type: 'stdio', command, args: argv };
  if (Object.keys(environment).length) template.env = environment;
  const envText = Object.entries(environment).map(([k, v]) => ` ${k}=${v}`);
  return {
    template,
    variables: c.variables,
    summary: showTokens([command, ...argv].join(' ') + (envText.length ? `, env${envText.join(',')}` : '')),
  };
}

function remotePlan(remote: RegistryRemote, taken?: ReadonlySet<string>): InstallPlan {
  const type =
    remote.type === 'streamable-http' || remote.type === 'http' ? 'http' : remote.type === 'sse' ? 'sse' : undefined;
  if (!type)
    throw new UnsupportedInstallError(
      `Remote transport "${remote.type}" is not supported (streamable-http and sse are).`,
    );
  noExpansion(remote.url, 'URL');
  for (const [name, v] of Object.entries(remote.variables ?? {})) checkInput(v, `URL variable ${name}`);
  const c = new Collector(taken);
  const url = c.expand(remote.url, remote.variables, 'the URL');
  const h = headers(remote.headers, c);
  const template: Record<string, unknown> = { type, url };
  if (Object.keys(h).length) template.headers = h;
  // Every header is shown with its value: a fixed one is sent to the server as written.
  const headerText = Object.entries(h).map(([k, v]) => `, header ${k}: ${v}`);
  return { template, variables: c.variables, summary: showTokens(`${type} ${url}${headerText.join('')}`) };
}

/** @param takenIds input ids the target file already uses (`inputIdsIn`): variables get other ids. */
export function planInstall(
  server: RegistryServer,
  choice: InstallChoice,
  takenIds?: ReadonlySet<string>,
): InstallPlan {
  const plan = planChoice(server, choice, takenIds);
  // Recorded so a "registryOnly" policy can check the entry against the registry at start.
  plan.template.registry = { id: server.name, ...(server.version ? { version: server.version } : {}) };
  return plan;
}

function planChoice(server: RegistryServer, choice: InstallChoice, takenIds?: ReadonlySet<string>): InstallPlan {
  if (choice.kind === 'package') {
    const p = server.packages[choice.index];
    if (!p) throw new UnsupportedInstallError(`"${server.name}" has no package ${choice.index + 1}.`);
    return packagePlan(p, takenIds);
  }
  const r = server.remotes[choice.index];
  if (!r) throw new UnsupportedInstallError(`"${server.name}" has no remote ${choice.index + 1}.`);
  return remotePlan(r, takenIds);
}

/** The ways a server can be installed, best first: stdio packages of known registries, then remotes. */
export function installChoices(
  server: RegistryServer,
): { choice: InstallChoice; summary?: string; unsupported?: string }[] {
  const out: { choice: InstallChoice; summary?: string; unsupported?: string }[] = [];
  const all: InstallChoice[] = [
    ...server.packages.map((_, index) => ({ kind: 'package' as const, index })),
    ...server.remotes.map((_, index) => ({ kind: 'remote' as const, index })),
  ];
  for (const choice of all) {
    try {
      out.push({ choice, summary: planInstall(server, choice).summary });
    } catch (e) {
      out.push({ choice, unsupported: (e as Error).message });
    }
  }
  return out.sort((a, b) => Number(!!a.unsupported) - Number(!!b.unsupported));
}

/** How secret values are referenced: `${input:ID}` (editor) or `${ID}` from the environment (CLI). */
export type SecretStyle = 'input' | 'env';

export interface BuiltEntry {
  entry: Record<string, unknown>;
  /** Variables written as references; the caller stores or explains their values. */
  secrets: InstallVariable[];
}

/**
 * The entry with every placeholder filled: secrets as references, others with `values[id]` or
 * their default. A required variable without a value is an error naming it.
 */
export function buildEntry(
  plan: InstallPlan,
  values: Readonly<Record<string, string | undefined>>,
  secretStyle: SecretStyle,
): BuiltEntry {
  const fill = new Map<string, string | undefined>();
  const secrets: InstallVariable[] = [];
  const missing: string[] = [];
  for (const v of plan.variables) {
    if (v.isSecret) {
      fill.set(v.id, secretStyle === 'input' ? `\${input:${v.id}}` : `\${${v.id}}`);
      secrets.push(v);
      continue;
    }
    const value = values[v.id] ?? v.default;
    if (value === undefined || value === '') {
      if (v.isRequired) missing.push(`${v.id} (${v.label}${v.description ? `: ${v.description}` : ''})`);
      fill.set(v.id, undefined);
    } else fill.set(v.id, value);
  }
  if (missing.length)
    throw new UnsupportedInstallError(`Missing required value${missing.length > 1 ? 's' : ''}: ${missing.join('; ')}`);
  const re = new RegExp(`${MARK}([^${MARK}]*)${MARK}`, 'g');
  const subst = (s: string): string | undefined => {
    let dropped = false;
    const out = s.replace(re, (_, id: string) => {
      const v = fill.get(id);
      if (v === undefined) dropped = true;
      return v ?? '';
    });
    return dropped && out.trim() === '' ? undefined : out;
  };
  const t = plan.template;
  const entry: Record<string, unknown> = { ...t };
  if (Array.isArray(t.args)) entry.args = (t.args as string[]).map(subst).filter((a): a is string => a !== undefined);
  if (typeof t.url === 'string') entry.url = subst(t.url);
  for (const key of ['env', 'headers'] as const) {
    const obj = t[key] as Record<string, string> | undefined;
    if (!obj) continue;
    const next: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj)) {
      const s = subst(v);
      if (s !== undefined) next[k] = s;
    }
    if (Object.keys(next).length) entry[key] = next;
    else delete entry[key];
  }
  return { entry, secrets };
}

/** A config name for a registry server: the part after the slash ("io.github.user/weather" → "weather"). */
export function suggestedName(server: RegistryServer, taken: ReadonlySet<string>): string {
  const base =
    (server.name.split('/').pop() ?? server.name).replace(/[^A-Za-z0-9_-]/g, '-').replace(/^-+|-+$/g, '') || 'server';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}
