/**
 * Limits that keep anyone on this machine (no token needed to open a TCP connection) from
 * exhausting a loopback server (the IDE server, the gateway): at most a few sockets may sit
 * before they authenticate, each for a few seconds, the oldest evicted for a newcomer; and
 * refusals are logged at a bounded rate, so a flood cannot fill the log. In the editor these
 * servers share the extension host with every other extension.
 */
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Sockets allowed to wait for authentication at once; the oldest is dropped for a new one. Default 32. */
  maxPending?: number;
  /** Time from TCP connect to an authenticated request (or WebSocket upgrade). Default 5 s. */
  handshakeTimeoutMs?: number;
}

/**
 * Tracks sockets that have not authenticated yet; drops the oldest over the cap and the slow
 * ones. `what` names the step in the drop reason ("WebSocket handshake", "authenticated request").
 */
export class PendingSockets {
  private readonly pending = new Map<Socket, NodeJS.Timeout>();
  private readonly max: number;
  private readonly timeoutMs: number;

  constructor(
    limits: ConnectionLimits,
    private readonly onDrop: (why: string) => void,
    private readonly what = 'WebSocket handshake',
  ) {
    this.max = limits.maxPending ?? 32;
    this.timeoutMs = limits.handshakeTimeoutMs ?? 5_000;
  }

  get size(): number {
    return this.pending.size;
  }

  /** A new TCP connection. Evicting the oldest (not refusing the newest) lets a real agent in during a flood. */
  add(socket: Socket): void {
    const due = Date.now() + this.timeoutMs;
    const judge = (): void => {
      if (this.pending.has(socket)) this.drop(socket, `no ${this.what} within ${Math.round(this.timeoutMs / 1000)} s`);
    };
    // The deadline counts time this process ran. After a stall (GC, a busy extension host) the timer
    // fires late, before the loop has read what came in meanwhile or let a client in this process
    // write: the stall is given back once, and the socket judged after that turn's reads.
    const timer = setTimeout(() => {
      const grace = setTimeout(() => setImmediate(judge).unref(), Math.min(Date.now() - due, this.timeoutMs));
      grace.unref();
      if (this.pending.has(socket)) this.pending.set(socket, grace);
    }, this.timeoutMs);
    timer.unref();
    this.pending.set(socket, timer);
    socket.once('close', () => this.forget(socket));
    if (this.pending.size > this.max) {
      const oldest = this.pending.keys().next().value as Socket;
      this.drop(oldest, `more than ${this.max} connections waiting for a ${this.what}`);
    }
  }

  /** The socket authenticated (or upgraded): its clock stops. */
  forget(socket: Socket): void {
    const timer = this.pending.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.pending.delete(socket);
  }

  dispose(): void {
    for (const s of [...this.pending.keys()]) this.forget(s);
  }

  private drop(socket: Socket, why: string): void {
    this.forget(socket);
    socket.destroy();
    this.onDrop(why);
  }
}

/**
 * At most `burst` lines per `windowMs`; what was held back is summed up in one line when the next
 * line is allowed (or at the end of the window).
 */
export class RateLimitedLog {
  private windowStart = 0;
  private count = 0;
  private suppressed = 0;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly burst = 5,
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
    /** Starts the summary line: "IDE server", "gateway". */
    private readonly who = 'IDE server',
  ) {}

  log(line: string): void {
    const t = this.now();
    if (t - this.windowStart >= this.windowMs) {
      this.flush();
      this.windowStart = t;
      this.count = 0;
    }
    if (this.count < this.burst) {
      this.count++;
      this.write(line);
      return;
    }
    this.suppressed++;
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.windowMs - (t - this.windowStart));
      this.flushTimer.unref();
    }
  }

  /** Writes the summary of held-back lines, if any. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.suppressed === 0) return;
    this.write(
      `${this.who}: ${this.suppressed} more refused connection(s) not logged (at most ${this.burst} lines per ${Math.round(this.windowMs / 1000)} s)`,
    );
    this.suppressed = 0;
  }
}
