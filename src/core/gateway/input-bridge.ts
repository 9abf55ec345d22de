/**
 * A modern (2026-07-28) agent cannot be sent a request mid-call: a question an upstream server asks
 * during its call (elicitation, sampling, over the legacy wire) becomes an `input_required` result,
 * and the agent's retry (same call, `inputResponses`, our `requestState`) carries the answer back.
 * The upstream call keeps running between the two HTTP exchanges: it is parked here under a random
 * `requestState` that only the agent that got it can present, and aborted when nobody resumes it.
 */
import { randomUUID } from 'node:crypto';
import { inputRequired, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { InputRequest, InputRequiredResult } from '@modelcontextprotocol/server';

/** Asks the agent of a parked call one question; resolves with the bare result it answers. */
export type AskAgent = (request: InputRequest, signal?: AbortSignal) => Promise<unknown>;

interface Question {
  key: string;
  request: InputRequest;
  resolve(answer: unknown): void;
  reject(err: Error): void;
}

interface Call<R> {
  /** The agent it was started for: only it may resume it. */
  owner?: string;
  controller: AbortController;
  outcome: Promise<{ ok: true; value: R } | { ok: false; error: unknown }>;
  waiting: Question[];
  wake?: () => void;
  next: number;
  timer?: NodeJS.Timeout;
}

export interface ParkedCallsOptions {
  /** How long a call waits for the agent's retry before it is aborted. Default 5 minutes. */
  resumeTimeoutMs?: number;
}

export class ParkedCalls {
  private readonly parked = new Map<string, Call<unknown>>();

  constructor(private readonly opts: ParkedCallsOptions = {}) {}

  /** Calls parked now, waiting for their agent's answer. */
  size(): number {
    return this.parked.size;
  }

  /**
   * Runs `start` for a new call, or resumes the call `requestState` names with `inputResponses`.
   * Resolves with the call's result, or with `input_required` while a question waits for the agent.
   */
  async run<R>(
    request: { signal: AbortSignal; requestState?: string; inputResponses?: Record<string, unknown>; owner?: string },
    start: (ask: AskAgent, signal: AbortSignal) => Promise<R>,
  ): Promise<R | InputRequiredResult> {
    let call: Call<R>;
    if (request.requestState !== undefined) {
      const found = this.parked.get(request.requestState) as Call<R> | undefined;
      // Another agent's requestState (leaked, or guessed) is refused as if unknown, and the call
      // stays parked for its own agent: presenting it must not answer or cancel someone else's call.
      if (!found || found.owner !== request.owner)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'unknown or expired requestState: the call it belonged to has ended; call the tool again',
        );
      this.parked.delete(request.requestState);
      clearTimeout(found.timer);
      call = found;
      const responses = request.inputResponses ?? {};
      call.waiting = call.waiting.filter((q) => {
        if (!(q.key in responses)) return true;
        q.resolve(responses[q.key]);
        return false;
      });
    } else {
      call = this.begin(start);
      if (request.owner !== undefined) call.owner = request.owner;
    }
    return this.advance(call, request.signal);
  }

  private begin<R>(start: (ask: AskAgent, signal: AbortSignal) => Promise<R>): Call<R> {
    const controller = new AbortController();
    const call: Call<R> = { controller, waiting: [], next: 0, outcome: undefined as never };
    const ask: AskAgent = (request, signal) =>
      new Promise((resolve, reject) => {
        const q: Question = { key: `q${++call.next}`, request, resolve, reject };
        call.waiting.push(q);
        signal?.addEventListener('abort', () => {
          call.waiting = call.waiting.filter((w) => w !== q);
          reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
        });
        call.wake?.();
      });
    call.outcome = start(ask, controller.signal).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    return call;
  }

  /** Waits, while this exchange lasts, for the call to end or to ask something. */
  private async advance<R>(call: Call<R>, signal: AbortSignal): Promise<R | InputRequiredResult> {
    const cancel = (): void => call.controller.abort(new Error('cancelled by the agent'));
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel);
    try {
      const asked = new Promise<'asked'>((resolve) => {
        call.wake = () => resolve('asked');
        if (call.waiting.length > 0) resolve('asked');
      });
      const first = await Promise.race([call.outcome, asked]);
      call.wake = undefined;
      if (first !== 'asked') {
        if (first.ok) return first.value;
        throw first.error;
      }
      const token = randomUUID();
      this.parked.set(token, call as Call<unknown>);
      call.timer = setTimeout(() => {
        if (this.parked.delete(token)) this.end(call, new Error('the agent did not answer in time'));
      }, this.opts.resumeTimeoutMs ?? 300_000);
      return inputRequired({
        inputRequests: Object.fromEntries(call.waiting.map((q) => [q.key, q.request])),
        requestState: token,
      });
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  private end(call: Call<unknown>, why: Error): void {
    for (const q of call.waiting) q.reject(why);
    call.waiting = [];
    call.controller.abort(why);
  }

  /** Aborts every parked call (the gateway stops). */
  dispose(): void {
    for (const call of this.parked.values()) {
      clearTimeout(call.timer);
      this.end(call, new Error('the gateway stopped'));
    }
    this.parked.clear();
  }
}
