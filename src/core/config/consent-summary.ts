/**
 * What a person consents to when they approve a workspace or project server: everything in its
 * definition that executes on their machine or widens what it may reach. One pure function, used
 * by the editor's approval modal and the CLI's question alike, so neither can show less than the
 * other. A URL alone hides a `headersHelper` shell command that runs on every connect, an `envFile`
 * or an `LD_PRELOAD` that changes what the command does, and sandbox rules that open `~/.ssh` or
 * any domain — so each of those gets a line of its own. Secrets are redacted, names are kept.
 */
import { REDACTED, redactArgs, redactHeaders, redactString, redactUrl } from '../redact.js';
import type { OAuthSettings, RemoteServerConfig, ServerDefinition, StdioServerConfig } from './types.js';

/**
 * Environment variables whose value decides what runs or what it loads (search paths, preloads,
 * interpreter options, proxies): shown as written, since hiding them would hide the attack. Every
 * other value is redacted (a name like MODE can still hold a token).
 */
const EXECUTION_ENV =
  /^(PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|NODE_OPTIONS|NODE_PATH|PYTHON(PATH|HOME|STARTUP|USERBASE)|PERL5(OPT|LIB)|RUBY(OPT|LIB)|BASH_ENV|ENV|SHELL|HOME|GIT_[A-Z_]*|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|(npm|NPM)_config_[A-Za-z_]+|(http|https|all|no)_proxy|(HTTP|HTTPS|ALL|NO)_PROXY)$/;

const INDENT = '    ';

/** The entry's file, as the last two path parts (`repo/.mcp.json`). */
function shortFile(def: ServerDefinition): string {
  return def.source.file.split(/[\\/]/).slice(-2).join('/');
}

function headline(def: ServerDefinition): string {
  const c = def.config;
  const what =
    c.type === 'stdio'
      ? [c.command, ...redactArgs(c.args)].join(' ')
      : c.type === 'inprocess'
        ? `in-process ${c.id}`
        : `${c.type} ${redactUrl(c.url)}`;
  return `${def.name}: ${what}  (${shortFile(def)})`;
}

function envLine(env: Record<string, string> | undefined): string[] {
  const entries = Object.entries(env ?? {});
  if (!entries.length) return [];
  const shown = entries.map(([k, v]) => `${k}=${EXECUTION_ENV.test(k) ? redactString(v) : REDACTED}`);
  return [`environment: ${shown.join(', ')}`];
}

/** Only what the sandbox adds to its defaults: deny rules narrow it and need no consent. */
function sandboxLines(c: StdioServerConfig): string[] {
  if (c.sandboxEnabled !== true) return [];
  const write = c.sandbox?.filesystem?.allowWrite ?? [];
  const domains = c.sandbox?.network?.allowedDomains ?? [];
  const parts = ['sandboxed'];
  if (write.length) parts.push(`may also write: ${write.map(redactString).join(', ')}`);
  if (domains.length) parts.push(`may also connect to: ${domains.map(redactString).join(', ')}`);
  return [parts.join('; ')];
}

function devLines(c: StdioServerConfig): string[] {
  const out: string[] = [];
  if (c.dev?.debug) out.push(`started under the ${c.dev.debug.type} debugger (a debug port is opened)`);
  if (c.dev?.watch?.length) out.push(`restarted when these change: ${c.dev.watch.join(', ')}`);
  return out;
}

function stdioLines(c: StdioServerConfig): string[] {
  return [
    ...(c.cwd ? [`in folder: ${c.cwd}`] : []),
    ...(c.envFile ? [`environment file: ${c.envFile} (every variable in it reaches the command)`] : []),
    ...envLine(c.env),
    ...sandboxLines(c),
    ...devLines(c),
  ];
}

function oauthLine(o: OAuthSettings | undefined): string[] {
  if (!o) return [];
  const shown = Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const s = Array.isArray(v) ? v.join(' ') : String(v);
      return `${k} ${/url$/i.test(k) ? redactUrl(s) : redactString(s)}`;
    });
  return shown.length ? [`oauth: ${shown.join(', ')}`] : [];
}

function remoteLines(c: RemoteServerConfig): string[] {
  const headers = Object.entries(redactHeaders(c.headers) ?? {});
  return [
    ...(c.headersHelper
      ? [`runs this shell command on every connect (headersHelper): ${redactString(c.headersHelper)}`]
      : []),
    ...(headers.length ? [`headers: ${headers.map(([k, v]) => `${k}: ${v}`).join(', ')}`] : []),
    ...oauthLine(c.oauth),
  ];
}

/**
 * The lines for one definition: the first names it and what it runs or connects to (and its
 * file), each further one (indented) something else it executes or may reach.
 */
export function consentSummary(def: ServerDefinition): string[] {
  const c = def.config;
  const details = c.type === 'stdio' ? stdioLines(c) : c.type === 'inprocess' ? [] : remoteLines(c);
  return [headline(def), ...details.map((l) => `${INDENT}${l}`)];
}
