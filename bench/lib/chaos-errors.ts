/**
 * Why a chaos call failed. A fault server's error that its fault explains, or a call to a server
 * the run was restarting, disabling or re-configuring at the time, is expected; anything else is
 * "unexplained" and counted against a goal of 0 (a host bug until shown otherwise).
 */
import type { ChaosServer } from './chaos-rig.js';

/** How long after a restart, re-enable or edit finished its server may still fail calls (reconnecting). */
const SETTLE_MS = 2_000;

export type MeddleKind = 'restart' | 'disable' | 'edit';

/** What the run did to which server, and when. */
export class Meddling {
  private readonly spans: { name: string; kind: MeddleKind; from: number; to: number }[] = [];

  /** Marks `name` as being meddled with from now; call the result when it is done. */
  begin(name: string, kind: MeddleKind): () => void {
    const span = { name, kind, from: performance.now(), to: Infinity };
    this.spans.push(span);
    return () => {
      span.to = performance.now();
    };
  }

  /** The kinds of meddling with `name` that overlapped a call started at `since` and ending now. */
  touched(name: string, since: number): MeddleKind[] {
    const now = performance.now();
    const out = new Set<MeddleKind>();
    for (let i = this.spans.length - 1; i >= 0; i--) {
      const m = this.spans[i];
      if (m.name === name && m.from <= now && m.to + SETTLE_MS >= since) out.add(m.kind);
    }
    return [...out];
  }
}

/** What each fault may answer a call with: the patterns of the messages it causes. */
const EXPECTED: Record<ChaosServer['fault'], RegExp | undefined> = {
  none: undefined,
  // A call that ran out of time while the server that died was being started again.
  crash: /exited|closed|was killed|not connected|connection|reconnect|waiting for the server to connect/i,
  exit: /exited|closed|was killed|not connected|connection|reconnect|waiting for the server to connect/i,
  hang: /timed out|timeout/i,
  drop: /fetch failed|socket|ECONNRESET|terminated|other side closed|network|closed|connection|reconnect/i,
  expire: /session|404|not found|closed|connection|reconnect/i,
  slow: undefined,
  garbage: undefined,
};

/** `fault: crash`, `meddling: restart`, or `unexplained: <fault>: <message without numbers>`. */
export function classifyError(s: ChaosServer, message: string, meddled: MeddleKind[]): string {
  if (meddled.length) return `meddling: ${[...meddled].sort().join('+')}`;
  if (EXPECTED[s.fault]?.test(message)) return `fault: ${s.fault}`;
  const shape = message
    .replace(/[0-9a-f]{8,}/gi, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
  return `unexplained: ${s.fault}: ${shape}`;
}
