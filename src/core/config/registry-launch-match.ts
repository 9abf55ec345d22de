/**
 * The strict check a "registryOnly" policy runs: a definition is admitted only when it is the
 * launch the registry entry derives (install.ts, the one derivation the registry browser and
 * `add --from-registry` write): the same runner, package and version, arguments and transport, or
 * the same URL and headers. Only what the entry declares as variable may differ — values of its
 * environment variables, arguments, URL variables and headers. Anything else that would run or
 * connect beside it (`headersHelper`, `envFile`, `cwd`, dev mode, another command, an extra
 * argument, an undeclared variable such as `LD_PRELOAD`) refuses it, naming what differed.
 * `installed.ts` stays the lenient match the browser marks rows with; policy never uses it.
 */
import type { ServerConfig } from './types.js';
import { redactString, redactUrl } from '../redact.js';
import { planInstall, templateParts, type InstallChoice, type TemplatePart } from '../registry/install.js';
import type { KeyValueInput, RegistryServer } from '../registry/schema.js';

/** Keys beside the launch that change neither what runs nor where it connects. */
const STDIO_KEYS = new Set([
  'type',
  'command',
  'args',
  'env',
  'registry',
  'disabled',
  'timeout',
  'toolTimeout',
  // The sandbox only narrows what the launch may do; managed caps on it are checked elsewhere.
  'sandboxEnabled',
  'sandbox',
]);
const REMOTE_KEYS = new Set(['type', 'url', 'headers', 'registry', 'disabled', 'timeout', 'toolTimeout', 'oauth']);

const WHY_KEY: Record<string, string> = {
  headersHelper: 'runs a shell command at every connect',
  envFile: 'loads environment variables from a file',
  cwd: 'starts it in another folder, where the runner may pick up other packages or settings',
  dev: 'restarts it on file changes or starts it under a debugger',
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A variable's value in an argument, environment value or header: whatever the user supplied. */
const ANY = '[\\s\\S]*';
/** In a URL a value stays inside its part: no `/ ? #` or `\` that would move the host or path. */
const URL_PART = '[^/?#\\\\\\s]+';

function pattern(value: string, variable: string): RegExp {
  const parts = templateParts(value);
  return new RegExp(`^${parts.map((p) => ('literal' in p ? escapeRe(p.literal) : variable)).join('')}$`);
}

/** An argument made of variables only, none of them given: buildEntry leaves it out. */
function droppable(parts: TemplatePart[]): boolean {
  return parts.some((p) => 'variable' in p) && parts.every((p) => !('literal' in p) || p.literal.trim() === '');
}

/** A template value as people read it: `--port <PORT>`. */
const readable = (value: string): string =>
  templateParts(value)
    .map((p) => ('literal' in p ? p.literal : `<${p.variable}>`))
    .join('');

const show = (s: string): string => JSON.stringify(redactString(s.length > 60 ? `${s.slice(0, 60)}…` : s));

function unexpectedKeys(config: ServerConfig, allowed: ReadonlySet<string>): string | undefined {
  const extra = Object.entries(config)
    .filter(([k, v]) => v !== undefined && !allowed.has(k))
    .map(([k]) => k);
  if (!extra.length) return undefined;
  return extra.map((k) => `"${k}" ${WHY_KEY[k] ?? "is not part of the registry's launch"}`).join('; ');
}

/** Whether `got` is `tpl` with only droppable arguments left out (memoised: a registry may list many). */
function argsMatch(tpl: readonly string[], got: readonly string[]): boolean {
  const res = tpl.map((a) => pattern(a, ANY));
  const drop = tpl.map((a) => droppable(templateParts(a)));
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    if (i === tpl.length) return j === got.length;
    const key = i * (got.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const ok = (j < got.length && res[i]!.test(got[j]!) && go(i + 1, j + 1)) || (drop[i]! && go(i + 1, j));
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

/** The first place the arguments part, for the message (argsMatch decided). */
function argsDifference(tpl: readonly string[], got: readonly string[]): string {
  let j = 0;
  for (const [i, a] of tpl.entries()) {
    if (j < got.length && pattern(a, ANY).test(got[j]!)) j++;
    else if (!droppable(templateParts(a)))
      return j < got.length
        ? `argument ${j + 1} is ${show(got[j]!)} where the registry's launch has ${show(readable(a))}`
        : `argument ${show(readable(a))} (${i + 1} of the registry's launch) is missing`;
  }
  return j < got.length
    ? `it has an argument the registry's launch does not: ${show(got[j]!)} (argument ${j + 1})`
    : "its arguments differ from the registry's launch";
}

/** Values keyed by name (env, headers): declared names only, fixed parts as the registry wrote them. */
function keyedDifference(
  what: 'environment variable' | 'header',
  tpl: Readonly<Record<string, string>>,
  got: Readonly<Record<string, string>> | undefined,
  declared: readonly KeyValueInput[],
): string | undefined {
  const names = new Set([...Object.keys(tpl), ...declared.map((d) => d.name)]);
  const norm = (k: string): string => (what === 'header' ? k.toLowerCase() : k);
  const byNorm = new Map([...names].map((k) => [norm(k), k]));
  for (const [k, v] of Object.entries(got ?? {})) {
    const name = byNorm.get(norm(k));
    if (name === undefined) return `${what} ${k} is not one the registry entry declares`;
    const t = tpl[name];
    // Values are never shown: they may be secrets.
    if (t !== undefined && !pattern(t, ANY).test(v)) return `${what} ${k} differs from the value the registry fixes`;
  }
  const gotNames = new Set(Object.keys(got ?? {}).map(norm));
  for (const [k, t] of Object.entries(tpl))
    if (!gotNames.has(norm(k)) && !droppable(templateParts(t)))
      return `${what} ${k}, which the registry fixes, is missing`;
  return undefined;
}

function stdioDifference(server: RegistryServer, index: number, config: ServerConfig): string | undefined {
  if (config.type !== 'stdio') return `it is a ${config.type} server, the registry's package runs over stdio`;
  const t = planInstall(server, { kind: 'package', index }).template as {
    command: string;
    args: string[];
    env?: Record<string, string>;
  };
  // What would run beside the launch is named first: it is what the check is for.
  const extra = unexpectedKeys(config, STDIO_KEYS);
  if (extra) return extra;
  if (config.command !== t.command)
    return `its command is ${show(config.command)}, the registry's launch runs ${show(t.command)}`;
  if (!argsMatch(t.args, config.args)) return argsDifference(t.args, config.args);
  const env = keyedDifference(
    'environment variable',
    t.env ?? {},
    config.env,
    server.packages[index]!.environmentVariables ?? [],
  );
  return env;
}

function remoteDifference(server: RegistryServer, index: number, config: ServerConfig): string | undefined {
  if (config.type === 'stdio' || config.type === 'inprocess')
    return `it is a ${config.type} server, the registry's remote is reached by URL`;
  const t = planInstall(server, { kind: 'remote', index }).template as {
    type: string;
    url: string;
    headers?: Record<string, string>;
  };
  const extra = unexpectedKeys(config, REMOTE_KEYS) ?? oauthDifference(config);
  if (extra) return extra;
  if (config.type !== t.type) return `it connects over ${config.type}, the registry's remote over ${t.type}`;
  if (!pattern(t.url, URL_PART).test(config.url))
    return `its URL ${redactUrl(config.url)} is not the registry's ${server.remotes[index]!.url}`;
  const h = keyedDifference('header', t.headers ?? {}, config.headers, server.remotes[index]!.headers ?? []);
  return h;
}

/**
 * `oauth` settings that only say how to sign in (client id, scopes, callback port, grant) are the
 * user's; these send the sign-in, or a client secret, to a server the registry's remote never
 * named (its own metadata points at its authorization server).
 */
const OAUTH_ELSEWHERE: Record<string, string> = {
  authServerMetadataUrl: 'sends the sign-in to an authorization server the registry entry does not name',
  issuer: 'sends the client credentials to an issuer the registry entry does not name',
};

function oauthDifference(config: ServerConfig): string | undefined {
  const oauth = 'oauth' in config ? config.oauth : undefined;
  const keys = Object.keys(OAUTH_ELSEWHERE).filter((k) => oauth?.[k as keyof typeof oauth] !== undefined);
  return keys.length ? keys.map((k) => `"oauth.${k}" ${OAUTH_ELSEWHERE[k]}`).join('; ') : undefined;
}

function labelOf(server: RegistryServer, c: InstallChoice): string {
  if (c.kind === 'remote') return `remote ${c.index + 1} (${server.remotes[c.index]!.url})`;
  const p = server.packages[c.index]!;
  return `package ${c.index + 1} (${p.registryType} ${p.identifier}${p.version ? `@${p.version}` : ''})`;
}

/**
 * Undefined when `config` is one of the launches `server` derives; else why not, naming for each
 * package or remote of the same kind what differed. An entry the registry lists but MCP Host
 * cannot derive (another transport, a `${` in a value) admits nothing.
 */
export function launchDifference(server: RegistryServer, config: ServerConfig): string | undefined {
  const local = config.type === 'stdio';
  const choices: InstallChoice[] = local
    ? server.packages.map((_, index) => ({ kind: 'package' as const, index }))
    : server.remotes.map((_, index) => ({ kind: 'remote' as const, index }));
  if (!choices.length)
    return local
      ? 'the registry lists no package for it, only remotes'
      : 'the registry lists no remote for it, only packages';
  const why: string[] = [];
  for (const c of choices) {
    let d: string | undefined;
    try {
      d = c.kind === 'package' ? stdioDifference(server, c.index, config) : remoteDifference(server, c.index, config);
    } catch (e) {
      d = `the registry's entry cannot be installed: ${(e as Error).message}`;
    }
    if (d === undefined) return undefined;
    why.push(choices.length > 1 ? `${labelOf(server, c)}: ${d}` : d);
  }
  return why.join('; ');
}
