// `mcp-host`: the headless front end over the same core. Parses the line, runs one command,
// stops every server it started, and exits with the contract's code (see errors.ts).
import { HELP, parseArgs, type Command, type ParsedArgs } from './args.js';
import { authCommand, logoutCommand } from './commands/auth.js';
import { complete } from './commands/complete.js';
import { doctor } from './commands/doctor.js';
import { addCommand, addJsonCommand, importCommand, removeCommand } from './commands/edit.js';
import { call, prompt, read } from './commands/invoke.js';
import { searchCommand } from './commands/registry.js';
import { list, prompts, resources, tools } from './commands/inventory.js';
import { serve } from './commands/serve.js';
import { serveHttp } from './commands/serve-http.js';
import { approveCommand } from './commands/approve.js';
import { allowsProjectServers } from './approvals.js';
import { EXIT, exitCodeFor, type ExitCode } from './errors.js';
import { safeIo } from './output.js';
import { Session, type Io } from './session.js';
import { servingPorts } from './commands/serve-ports.js';
import { errorMessage, hintOf } from '../core/errors.js';
import { setCliEntry, teeStderr } from './process-hooks.js';

import { VERSION } from '../core/version.js';

export { VERSION };

const HANDLERS: Record<Command, (s: Session, a: ParsedArgs) => Promise<ExitCode>> = {
  list,
  tools,
  call,
  resources,
  read,
  prompts,
  prompt,
  doctor,
  auth: authCommand,
  logout: logoutCommand,
  complete,
  serve: (s, a) => (a.http ? serveHttp(s, a) : serve(s, a)),
  search: searchCommand,
  add: addCommand,
  'add-json': addJsonCommand,
  remove: removeCommand,
  import: importCommand,
  approve: approveCommand,
};

function printError(io: Io, err: unknown): void {
  const message = errorMessage(err);
  io.stderr(`mcp-host: ${message}\n`);
  const hint = hintOf(err);
  if (hint) io.stderr(`  ${hint}\n`);
}

/** Runs one command line; never throws. `onSession` lets the caller stop servers on a signal. */
export async function runCli(argv: readonly string[], rawIo: Io, onSession?: (s: Session) => void): Promise<ExitCode> {
  // Everything printed passes here: terminal escapes from config or servers shown, stderr redacted.
  const io = safeIo(rawIo);
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    printError(io, err);
    return exitCodeFor(err);
  }
  if (parsed.help) {
    io.stdout(HELP);
    return EXIT.ok;
  }
  if (parsed.version) {
    io.stdout(`${VERSION}\n`);
    return EXIT.ok;
  }
  // The environment's form of the flag: `serve` and every other command read it from `parsed`.
  if (allowsProjectServers(io.env)) parsed = { ...parsed, allowProjectServers: true };
  let session: Session | undefined;
  try {
    session = await Session.open(io, {
      workspace: parsed.workspace,
      configs: parsed.configs,
      userSettings: parsed.userSettings,
      verbose: parsed.verbose,
      trace: parsed.trace,
      clearListCache: parsed.clearListCache,
      allowProjectServers: parsed.allowProjectServers,
      // `serve`'s ports are fixed before its session opens (commands/serve-ports.ts).
      serving: servingPorts(parsed, io),
    });
    onSession?.(session);
    return await HANDLERS[parsed.command!](session, parsed);
  } catch (err) {
    printError(io, err);
    return exitCodeFor(err);
  } finally {
    await session?.dispose();
  }
}

async function main(): Promise<void> {
  const io: Io = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => {
      process.stderr.write(s);
      teeStderr(s);
    },
    env: process.env,
    cwd: process.cwd(),
  };
  setCliEntry([...process.execArgv, ...process.argv.slice(1, 2)]);
  let session: Session | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    // A command that drains (serve --http) takes the first signal; a second one stops at once.
    if (session?.takeStopSignal(signal)) return;
    stopping = true;
    // Stop the servers' process trees before going: an interrupted CLI must not leave orphans.
    void (session?.dispose() ?? Promise.resolve()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // `mcp-host tools | head -1`: the reader going away is not an error of ours.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') process.stderr.write(`mcp-host: cannot write output: ${err.message}\n`);
  });
  const code = await runCli(process.argv.slice(2), io, (s) => (session = s));
  // Interrupted: the call failed because its servers are going down. The signal handler exits
  // with 130/143 once they are gone; exiting here with the call's error code would race it.
  if (stopping) return;
  process.exitCode = code;
  // Flush before exiting: stdout may be a pipe, and process.exit does not wait for it.
  process.stdout.write('', () => process.exit(code));
}

// Only when run as the program (dist/cli.js or tsx src/cli/main.ts), not when imported by tests.
if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(
      `mcp-host: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(EXIT.connection);
  });
}
