/**
 * The calls of the balancer bench (bench/balancer.ts): every call carries a nonce its answer must
 * echo (an answer routed to another call or agent counts as wrong), has a watchdog at its timeout +
 * 1 s (past it, a call "never ended"), and each failure is given a cause afterwards: a call in flight
 * when a process was killed (started before it was gone, failed after the signal) is the kill's;
 * anything else is unexplained.
 */
import type { TeamAgent } from '../../test/integration/gateway/service/fleet-agents.js';

export const CALL_TIMEOUT_MS = 10_000;

interface Failure {
  started: number;
  ended: number;
  why: string;
}

export class Tally {
  made = 0;
  ok = 0;
  wrong = 0;
  neverEnded = 0;
  readonly latencies: number[] = [];
  readonly failures: Failure[] = [];
  /** When a process was killed (performance.now()), if one was. */
  killedAt: number | undefined;
  /** When one was told to drain. */
  drainedAt: number | undefined;

  /** A failure's times beside the kill's and the drain's, for the log. */
  when(f: Failure): string {
    const rel = (t: number, at: number | undefined): string => (at === undefined ? '-' : `${Math.round(t - at)} ms`);
    return `started ${rel(f.started, this.killedAt)} / ended ${rel(f.ended, this.killedAt)} from the kill, started ${rel(f.started, this.drainedAt)} from the drain`;
  }

  /** When its exit was seen: a signal takes effect a moment after it is sent. */
  deadAt: number | undefined;

  /** Failures in flight at the kill (started before the exit was seen, ended after the signal), and the rest. */
  causes(): { kill: number; unexplained: Failure[] } {
    const [k, dead] = [this.killedAt, this.deadAt ?? this.killedAt];
    const byKill = (f: Failure): boolean => k !== undefined && f.started <= dead! && f.ended >= k;
    return { kill: this.failures.filter(byKill).length, unexplained: this.failures.filter((f) => !byKill(f)) };
  }
}

let nonces = 0;

/** One echo call of `agent`, judged and timed into `tally`. */
export async function judgedCall(agent: TeamAgent, tally: Tally): Promise<void> {
  const nonce = `n${++nonces}-${Math.random().toString(36).slice(2, 8)}`;
  const started = performance.now();
  tally.made++;
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<'never'>((r) => (timer = setTimeout(() => r('never'), CALL_TIMEOUT_MS + 1000)));
  const call = agent.call('s__echo', { text: nonce }, { timeout: CALL_TIMEOUT_MS }).then(
    (r) => ({ r }),
    (err: unknown) => ({ err }),
  );
  const out = await Promise.race([call, watchdog]);
  clearTimeout(timer);
  const ended = performance.now();
  if (out === 'never') {
    tally.neverEnded++;
    return;
  }
  if ('err' in out) {
    const err = out.err as Error & { cause?: { message?: string; code?: string } };
    const cause = err.cause ? ` (${err.cause.code ?? ''} ${err.cause.message ?? ''})` : '';
    const why = `${err instanceof Error ? err.message : String(err)}${cause}`;
    tally.failures.push({ started, ended, why: `${agent.era}: ${why.slice(0, 200)}` });
    return;
  }
  const text = (out.r as { content?: { text?: string }[] }).content?.[0]?.text;
  if (text !== `echo: ${nonce}`) {
    tally.wrong++;
    return;
  }
  tally.ok++;
  tally.latencies.push(ended - started);
}

/**
 * Every agent makes `calls` calls one after another, all agents at once, within `budgetMs`; `onProgress`
 * hears the count of calls ended so far (the bench kills and drains at fractions of it).
 */
export async function callRound(
  agents: TeamAgent[],
  calls: number,
  tally: Tally,
  budgetMs: number,
  onProgress?: (ended: number, total: number) => void,
): Promise<void> {
  const deadline = performance.now() + budgetMs;
  const total = agents.length * calls;
  let ended = 0;
  await Promise.all(
    agents.map(async (a) => {
      for (let i = 0; i < calls && performance.now() < deadline; i++) {
        await judgedCall(a, tally);
        onProgress?.(++ended, total);
      }
    }),
  );
}

/** Connects agents a batch at a time: 200 initializes at once is a connection storm, not a workload. */
export async function connectAll(agents: TeamAgent[], batch = 20): Promise<void> {
  for (let i = 0; i < agents.length; i += batch) await Promise.all(agents.slice(i, i + batch).map((a) => a.connect()));
}
