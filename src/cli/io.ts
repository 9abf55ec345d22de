/** What a CLI run talks to: its output streams, environment and folder (a test passes its own). */

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where elicitation questions are asked; defaults to the process's terminal (the notes around them go to stderr). */
  terminal?: Terminal;
}

/** Where a person answers the questions servers ask (elicitation.ts). */
export interface Terminal {
  /** True when a person can answer (stdin and stderr are TTYs). */
  interactive: boolean;
  /** Asks one line; resolves undefined at end of input (Ctrl+D). */
  question(prompt: string, signal?: AbortSignal): Promise<string | undefined>;
}
