/** What `runCli` prints, kept for the test to read: the CLI run in the test's own process. */
import type { Io } from '../../src/cli/session.js';

export type CapturedIo = Io & { out: string; err: string };

/**
 * An `Io` in `cwd` that keeps stdout and stderr; the environment is PATH and `env` only, and the
 * folder's own servers start without approval (the test wrote them; `env` may set it to '').
 */
export function capturedIo(cwd: string, env: Record<string, string | undefined> = {}): CapturedIo {
  const r: CapturedIo = {
    out: '',
    err: '',
    stdout: (s: string) => void (r.out += s),
    stderr: (s: string) => void (r.err += s),
    env: { PATH: process.env.PATH, MCP_HOST_ALLOW_PROJECT_SERVERS: '1', ...env },
    cwd,
  };
  return r;
}
