/**
 * Command-line parsing for `mcp-host`. Global options may appear anywhere on the line; values
 * are given as `--opt VALUE` or `--opt=VALUE`; `--` ends option parsing. What each command and
 * option takes is one table (options.ts); this file only walks the line against it.
 */
import { usageError } from './errors.js';
import { usageLine } from './help.js';
import { COMMAND_TABLE, OPTION_TABLE, type Command, type OptionSpec, type ParsedArgs } from './options.js';

export { HELP, usageLine } from './help.js';
export type { Command, ParsedArgs } from './options.js';

export const COMMANDS = Object.keys(COMMAND_TABLE) as Command[];

/** Positional arguments each command takes: [required, optional]. */
export const ARITY: Record<Command, { required: string[]; optional: string[] }> = Object.fromEntries(
  COMMANDS.map((c) => [c, { required: COMMAND_TABLE[c].required, optional: COMMAND_TABLE[c].optional }]),
) as Record<Command, { required: string[]; optional: string[] }>;

/** Which commands accept which command options. */
export const COMMAND_OPTIONS: Record<string, readonly Command[]> = Object.fromEntries(
  OPTION_TABLE.filter((o) => o.commands).map((o) => [o.name, o.commands!]),
);

const names = (o: OptionSpec): string[] => (o.alias ? [o.name, o.alias] : [o.name]);
export const VALUE_OPTIONS = new Set(OPTION_TABLE.filter((o) => o.value !== undefined).flatMap(names));
export const FLAG_OPTIONS = new Set(OPTION_TABLE.filter((o) => o.value === undefined).flatMap(names));

const BY_NAME = new Map(OPTION_TABLE.flatMap((o) => names(o).map((n) => [n, o] as const)));

function emptyArgs(): ParsedArgs {
  return {
    positionals: [],
    configs: [],
    json: false,
    help: false,
    version: false,
    env: [],
    headers: [],
    exclude: [],
    allowProjectServers: false,
  };
}

/** The options and words of the line, in order; `seen` holds every option given. */
function readLine(argv: readonly string[]): { out: ParsedArgs; seen: string[] } {
  const out = emptyArgs();
  const seen: string[] = [];
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (rest || !a.startsWith('-') || a === '-') {
      out.positionals.push(a);
      if (rest) out.rest!.push(a);
      continue;
    }
    if (a === '--') {
      rest = true;
      out.rest = [];
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const spec = BY_NAME.get(name);
    if (!spec) throw usageError(`unknown option ${name}`, 'Run mcp-host --help for the options.');
    let value = '';
    if (spec.value === undefined) {
      if (eq > 0) throw usageError(`option ${name} takes no value`);
    } else if (eq > 0) value = a.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw usageError(`option ${name} needs a value`);
      value = argv[++i]!;
    }
    seen.push(spec.name);
    spec.set(out, value);
  }
  return { out, seen };
}

/** The command and its arguments, checked against what it takes. */
/** The team gateway's listening options go with `serve --http`, the certificate with its key. */
function checkListening(out: ParsedArgs, seen: readonly string[]): void {
  const listening = ['--host', '--port', '--tls-cert', '--tls-key', '--allow-remote', '--insecure-http'];
  const stray = seen.find((o) => listening.includes(o));
  if (stray && !out.http)
    throw usageError(`serve: ${stray} is for the team gateway`, `usage: mcp-host serve --http ${stray} …`);
  if ((out.tlsCert === undefined) !== (out.tlsKey === undefined))
    throw usageError('serve --http: give --tls-cert and --tls-key together');
}

function checkCommand(out: ParsedArgs, seen: readonly string[]): void {
  const [command, ...positionals] = out.positionals;
  if (command === undefined) throw usageError('no command given', 'Run mcp-host --help for the commands.');
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw usageError(`unknown command "${command}"; commands: ${COMMANDS.join(', ')}`);
  }
  const c = command as Command;
  out.command = c;
  out.positionals = positionals;
  const usage = `usage: mcp-host ${usageLine(c)}`;
  const { required, optional } = ARITY[c];
  if (positionals.length < required.length) {
    throw usageError(`${command}: missing ${required.slice(positionals.length).join(' ')}`, usage);
  }
  // `add NAME -- COMMAND ARGS…`: the words after `--` are the server's command line.
  // `approve [NAME…]`: any number of names.
  const variadic = c === 'add' ? (out.rest?.length ?? 0) : c === 'approve' ? positionals.length : 0;
  if (positionals.length > required.length + optional.length + variadic) {
    throw usageError(`${command}: unexpected argument "${positionals[required.length + optional.length]}"`, usage);
  }
  for (const opt of seen) {
    const allowed = COMMAND_OPTIONS[opt];
    if (allowed && !allowed.includes(c)) throw usageError(`${command} does not take ${opt}`, usage);
  }
  if (out.all && out.cursor !== undefined) throw usageError('search: give --all or --cursor, not both', usage);
  checkListening(out, seen);
  if (c === 'complete' && (out.prompt === undefined) === (out.resource === undefined)) {
    throw usageError('complete: give exactly one of --prompt NAME or --resource URI_TEMPLATE', usage);
  }
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const { out, seen } = readLine(argv);
  if (out.help || out.version) return out;
  checkCommand(out, seen);
  return out;
}
