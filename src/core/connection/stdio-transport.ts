/**
 * stdio transport that owns its process tree. The SDK's StdioClientTransport kills only the direct
 * child and inherits or passes through stderr unbounded; servers launched via npx/uvx/shells leave
 * grandchildren behind, so we spawn ourselves: own process group, bounded stderr, tolerant stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { Logger } from '../ports.js';
import { redactString } from '../redact.js';
import { HostError } from './errors.js';
import {
  INSTANCE_ENV,
  killTree,
  newInstanceMarker,
  startTimeOf,
  type InstanceMarker,
  type KillTreeOptions,
} from './process-tree.js';
import { ownerMarker } from './host-reaper.js';
import { resolveCommand } from './resolve-command.js';
import { StderrCapture } from './stderr-capture.js';
import { isFrameAnswer } from './frame-channel.js';

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  logger: Logger;
  /** Base environment; defaults to the SDK's safe subset of process.env. */
  baseEnv?: Record<string, string>;
  /** Longest stdout line accepted (a single JSON-RPC message). Default 64 MiB. */
  maxLineBytes?: number;
  stderrBytes?: number;
  kill?: KillTreeOptions;
  /**
   * Rewrites the resolved command line just before spawn (the sandbox, src/core/sandbox/spawn.ts).
   * It gets the server's environment and returns the spawned wrapper's whole one, which replaces it:
   * the wrapper runs on the host, where the entry's `env` (PATH, LD_PRELOAD) must not reach.
   * `release` runs once the process is gone. A rejection fails the start: nothing runs unwrapped.
   */
  prepareSpawn?: (spec: {
    file: string;
    args: string[];
    env: Record<string, string>;
  }) => Promise<{ file: string; args: string[]; env: Record<string, string>; release?: () => void }>;
}

/** How the process ended, for "server exited with code X" messages. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when we asked it to stop. */
  requested: boolean;
}

export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr: StderrCapture;
  private child: ChildProcess | undefined;
  private stdoutBuf = '';
  private droppingLine = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  private exitInfo: ExitInfo | undefined;
  private requested = false;
  /** The server closed its stdout while it lived on: it can never answer again. */
  private stdoutEnded = false;
  private garbageLogged = 0;
  /** Sends written while the pipe was full, each waiting for it to drain (send). */
  private heldBack: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private readonly maxLine: number;
  private release: (() => void) | undefined;
  /** Finds the tree again once the server has exited and its detached helpers belong to init. */
  private readonly marker: InstanceMarker;
  private readonly markerValue: string;

  constructor(private readonly opts: StdioTransportOptions) {
    this.stderr = new StderrCapture(opts.logger, { maxBytes: opts.stderrBytes });
    this.maxLine = opts.maxLineBytes ?? 64 * 1024 * 1024;
    const m = newInstanceMarker();
    this.markerValue = m.value;
    this.marker = { env: `${m.name}=${m.value}` };
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** It closed its stdout while still running (the transport then closed). */
  get hungUp(): boolean {
    return this.stdoutEnded;
  }

  /** "exited with code 1" / "was killed by SIGKILL", plus the first error line and the last lines of stderr. */
  describeExit(): string {
    const e = this.exitInfo;
    let what = 'closed its connection';
    if (this.stdoutEnded) what = 'closed its stdout';
    else if (e) what = e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
    const tail = this.stderr.summaryLines(5);
    return tail.length ? `${what}. Last stderr lines:\n${tail.join('\n')}` : what;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
    // Closed before the client got to start it (a stop while connecting): a process spawned now
    // would belong to no one.
    if (this.closing || this.closed)
      return Promise.reject(new HostError('stopped', `${this.opts.command} was stopped before it started`));
    const owner = ownerMarker();
    const env: Record<string, string> = {
      ...(this.opts.baseEnv ?? getDefaultEnvironment()),
      ...(this.opts.env ?? {}),
      // Last, so a config entry cannot set them to another server's values.
      [INSTANCE_ENV]: this.markerValue,
      // Ends the server's tree if this process dies without stopping it (host-reaper.ts).
      ...(owner ? { [owner.name]: owner.value } : {}),
    };
    const resolved = resolveCommand(this.opts.command, this.opts.args, {
      platform: process.platform,
      env,
      cwd: this.opts.cwd,
    });
    const prepare = this.opts.prepareSpawn;
    if (!prepare) return this.spawnChild(resolved, env);
    return prepare({ file: resolved.file, args: resolved.args, env }).then(
      (p) => {
        this.release = p.release;
        if (this.closed) {
          this.releaseOnce();
          throw new HostError('stopped', `${this.opts.command} was stopped before it started`);
        }
        return this.spawnChild({ ...resolved, file: p.file, args: p.args }, p.env);
      },
      (e: unknown) => {
        throw new HostError(
          'spawn-failed',
          `could not start ${this.opts.command}: ${(e as Error).message}`,
          undefined,
          {
            cause: e,
          },
        );
      },
    );
  }

  private releaseOnce(): void {
    const r = this.release;
    this.release = undefined;
    r?.();
  }

  private spawnChild(resolved: ReturnType<typeof resolveCommand>, env: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(resolved.file, resolved.args, {
          env,
          cwd: this.opts.cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          // Own process group on POSIX, so the whole tree can be signalled at once.
          detached: process.platform !== 'win32',
          windowsHide: true,
          windowsVerbatimArguments: resolved.windowsVerbatimArguments,
          shell: false,
        });
      } catch (e) {
        reject(
          new HostError('spawn-failed', `could not start ${this.opts.command}: ${(e as Error).message}`, undefined, {
            cause: e,
          }),
        );
        return;
      }
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) this.marker.since = startTimeOf(child.pid);
        resolve();
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (!spawned) {
          const hint =
            err.code === 'ENOENT' && this.opts.cwd ? ` (does the working directory ${this.opts.cwd} exist?)` : '';
          reject(
            new HostError('spawn-failed', `could not start ${this.opts.command}: ${err.message}${hint}`, undefined, {
              cause: err,
            }),
          );
          this.finish();
        } else {
          this.onerror?.(err);
        }
      });
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => this.onStdout(chunk));
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => this.stderr.push(chunk));
      // Writing to a dead server raises EPIPE here; the exit handler reports the real cause. An
      // unheard stream 'error' would crash the whole host.
      child.stdin!.on('error', (err) => this.settleHeldBack(err));
      child.stdin!.on('drain', () => this.settleHeldBack());
      child.stdin!.on('close', () =>
        this.settleHeldBack(new Error('the pipe to the server closed before the message was written')),
      );
      child.stdout!.on('error', (err) => this.onerror?.(err));
      // An exiting server ends stdout too; one still running after a moment has only hung up.
      child.stdout!.once('end', () => {
        const t = setTimeout(() => {
          if (this.exitInfo || this.closed) return;
          this.stdoutEnded = true;
          void this.close();
        }, 200);
        t.unref();
      });
      child.stderr!.on('error', () => {});
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, requested: this.requested };
        // stdout may still hold the last responses; wait for it briefly, but not for grandchildren
        // that inherited the pipe and keep it open.
        let done = false;
        const fin = (): void => {
          if (done) return;
          done = true;
          this.stderr.flush();
          this.finish();
        };
        child.once('close', fin);
        setTimeout(fin, 200).unref();
      });
    });
  }

  private onStdout(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      if (this.droppingLine) {
        this.droppingLine = false;
        this.stdoutBuf = '';
        continue;
      }
      const line = this.stdoutBuf + piece;
      this.stdoutBuf = '';
      this.handleLine(line);
    }
    if (this.droppingLine) return;
    this.stdoutBuf += chunk.slice(start);
    if (this.stdoutBuf.length > this.maxLine) {
      this.opts.logger.warn(`[stdout] dropped a line longer than ${this.maxLine} characters`);
      this.stdoutBuf = '';
      this.droppingLine = true;
    }
  }

  private handleLine(raw: string): void {
    const line = raw.trim();
    if (line === '') return;
    let message: JSONRPCMessage;
    try {
      const value: unknown = JSON.parse(line);
      // The answer to a gateway's frame is the frame channel's to take (frame-channel.ts).
      message = isFrameAnswer(value) ? value : JSONRPCMessageSchema.parse(value);
    } catch {
      // Servers that print banners or debug output to stdout are common; skip, don't disconnect.
      if (this.garbageLogged < 100) {
        this.garbageLogged++;
        // Servers print tokens on stdout too (env dumps, debug headers): redacted like stderr.
        this.opts.logger.warn(
          `[stdout] ignored a line that is not JSON-RPC: ${redactString(line.length > 200 ? `${line.slice(0, 200)}…` : line)}`,
        );
      }
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || this.exitInfo) {
      return Promise.reject(new HostError('connection-closed', `the server ${this.describeExit()}`));
    }
    // No per-write callback: each one costs a closure and a tick of its own, and once the write
    // was accepted nothing waits on it (a failure then shows as the server's exit). A send held
    // back by a full pipe is the one that can still fail, and hears it from the stream's events.
    // Sends of one turn of the event loop go out in one write (cork until the next tick, the pattern
    // Node documents for stream.cork): with calls in flight, the replies of one stdout chunk each
    // start a request, and a write per message cost a pipe syscall and a server wake-up each (the
    // largest single item of a 16-in-flight profile; bench/README.md).
    if (!stdin.writableCorked) {
      stdin.cork();
      process.nextTick(uncork, stdin);
    }
    if (stdin.write(JSON.stringify(message) + '\n')) return Promise.resolve();
    // One set of stream listeners for every send held back (spawnChild), not one per send: with
    // many calls in flight behind a full pipe that would pile up listeners.
    return new Promise((resolve, reject) => this.heldBack.push({ resolve, reject }));
  }

  /** The pipe drained (each held-back send went out) or failed (none will). */
  private settleHeldBack(err?: Error): void {
    const held = this.heldBack;
    if (held.length === 0) return;
    this.heldBack = [];
    if (!err) for (const h of held) h.resolve();
    else void this.writeFailed(err).then((e) => held.forEach((h) => h.reject(e)));
  }

  /**
   * A broken pipe means the server is on its way out: say how it ended ("exited with code 5") once
   * the exit is seen, shortly after, rather than "write EPIPE".
   */
  private async writeFailed(err: Error): Promise<Error> {
    const child = this.child;
    if (child && !this.exitInfo) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        timer = setTimeout(resolve, 1000);
      });
      clearTimeout(timer);
    }
    if (!this.exitInfo) return err;
    return new HostError('server-exited', `the server ${this.describeExit()}`, undefined, { cause: err });
  }

  /** Stops the server: SIGINT → SIGTERM → SIGKILL over the whole tree; resolves when it is gone. */
  close(): Promise<void> {
    if (!this.closing) this.closing = this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    this.requested = true;
    const child = this.child;
    if (child?.pid !== undefined) {
      try {
        child.stdin?.end();
      } catch {
        // ignore: the pipe may be gone
      }
      // Always walk the tree, even when the direct child already exited: its group may live on.
      await killTree(child.pid, { ...this.opts.kill, marker: this.marker });
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.releaseOnce();
    this.onclose?.();
  }
}

function uncork(stream: NodeJS.WritableStream & { uncork(): void }): void {
  stream.uncork();
}
