/**
 * What only the `mcp-host` program (main.ts `main()`) knows, for `serve`'s shared gateway: how to
 * start this CLI again (the front starts the gateway as a detached copy of itself), and a tee of
 * its stderr (the gateway passes what it says on to every session's stderr, listener.ts). A CLI
 * run inside another program (tests' `runCli`) has no entry: its `serve` starts its own servers.
 */

let entry: readonly string[] | undefined;
let tee: ((text: string) => void) | undefined;

/** `process.execArgv` and the script, as the program was started. */
export function setCliEntry(argv: readonly string[]): void {
  entry = argv;
}

export function cliEntry(): readonly string[] | undefined {
  return entry;
}

export function setStderrTee(fn: ((text: string) => void) | undefined): void {
  tee = fn;
}

/** Everything the program writes to stderr passes here. */
export function teeStderr(text: string): void {
  tee?.(text);
}
