/**
 * When `serve`'s agent is gone. An agent that quits, crashes or gives up closes its end of both
 * pipes: serve's stdin reaches its end, and its next write to stdout fails (EPIPE). Either ends
 * serve, at any moment of its life (also while servers are still connecting), so that it and
 * every server it started go with the agent instead of running on unowned.
 */
import type { Readable, Writable } from 'node:stream';

export interface AgentLifetime {
  /** Resolves with what happened (`stdin ended`, `stdout: write EPIPE`…), once. */
  readonly gone: Promise<string>;
  dispose(): void;
}

export function watchAgent(stdin: Readable, stdout: Writable): AgentLifetime {
  let done: (why: string) => void = () => {};
  const gone = new Promise<string>((resolve) => (done = resolve));
  const onEnd = (): void => done('stdin ended');
  const onStdinClose = (): void => done('stdin closed');
  const onStdinError = (err: Error): void => done(`stdin: ${err.message}`);
  const onStdoutError = (err: Error): void => done(`stdout: ${err.message}`);
  const onStdoutClose = (): void => done('stdout closed');
  stdin.on('end', onEnd);
  stdin.on('close', onStdinClose);
  stdin.on('error', onStdinError);
  stdout.on('error', onStdoutError);
  stdout.on('close', onStdoutClose);
  // Already over before we looked (the agent left while the config was read).
  if (stdin.readableEnded || stdin.destroyed) done('stdin ended');
  if (stdout.destroyed || stdout.writableEnded) done('stdout closed');
  return {
    gone,
    dispose() {
      stdin.off('end', onEnd);
      stdin.off('close', onStdinClose);
      stdin.off('error', onStdinError);
      stdout.off('error', onStdoutError);
      stdout.off('close', onStdoutClose);
    },
  };
}
