/** The terminal of the CLI's own process: where a person answers the questions servers ask. */
import { createInterface } from 'node:readline/promises';
import type { Terminal } from './io.js';

export function processTerminal(): Terminal {
  return {
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    async question(prompt, signal) {
      // Prompts go to stderr so a command's stdout stays clean for pipes.
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      try {
        return await rl.question(prompt, signal ? { signal } : {});
      } catch {
        return undefined;
      } finally {
        rl.close();
      }
    },
  };
}
