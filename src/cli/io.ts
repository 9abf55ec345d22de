/** What a CLI run talks to: its output streams, environment and folder (a test passes its own). */
import type { Terminal } from './elicitation.js';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Where elicitation questions are asked; defaults to the process's terminal. */
  terminal?: Terminal;
}
