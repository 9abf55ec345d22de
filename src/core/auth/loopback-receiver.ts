/**
 * RFC 8252 loopback redirect: a one-shot HTTP listener on 127.0.0.1 that takes the code from
 * `/callback`, compares `state` with ours, answers the browser with a small page and stops.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, Disposable } from '../ports.js';
import { systemClock } from '../ports.js';
import { AuthError } from './errors.js';
import { errorPage, successPage } from './pages.js';
import type { RedirectReceiver, RedirectSession } from './ports.js';

export const REDIRECT_TIMEOUT_MS = 5 * 60 * 1000;
const CALLBACK_PATH = '/callback';
const MAX_EARLY = 8;

export interface LoopbackReceiverOptions {
  clock?: Clock;
  timeoutMs?: number;
}

export function createLoopbackReceiver(opts: LoopbackReceiverOptions = {}): RedirectReceiver {
  const clock = opts.clock ?? systemClock;
  const timeoutMs = opts.timeoutMs ?? REDIRECT_TIMEOUT_MS;
  return {
    async start(o = {}) {
      if (o.port !== undefined) return listen(o.port, clock, timeoutMs, true);
      if (o.preferredPort) {
        try {
          return await listen(o.preferredPort, clock, timeoutMs, true);
        } catch {
          // Taken: any port will do, the client is then registered again for it.
        }
      }
      return listen(0, clock, timeoutMs, false);
    },
  };
}

type Outcome = { code: string; state: string; iss?: string } | { error: AuthError; state?: string };

/** What one listener's request handler and its session share. */
interface Listener {
  /** Set while waitForCode waits; each redirect is handed to it. */
  deliver?: (o: Outcome, res: ServerResponse) => void;
  // Redirects that arrive before waitForCode knows the state (the browser can be quick); forged
  // ones among them must not crowd out the real one, so a few are held.
  early: { outcome: Outcome; res: ServerResponse }[];
  settled: boolean;
  /** Graceful after an answer (the page must reach the browser), abrupt when the caller gives up. */
  stop(abrupt: boolean): Promise<void>;
}

function listen(port: number, clock: Clock, timeoutMs: number, exact: boolean): Promise<RedirectSession> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => onRequest(listener, req, res));
  server.on('connection', (s) => s.unref());
  let closed = false;
  const listener: Listener = {
    early: [],
    settled: false,
    stop: (abrupt) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        server.close(() => resolve());
        if (abrupt) server.closeAllConnections();
        else server.closeIdleConnections();
      }),
  };
  return new Promise<RedirectSession>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, port, exact)));
    server.listen(port, '127.0.0.1', () => {
      const actual = (server.address() as AddressInfo).port;
      resolve(openSession(listener, `http://127.0.0.1:${actual}${CALLBACK_PATH}`, clock, timeoutMs));
    });
  });
}

function listenError(err: NodeJS.ErrnoException, port: number, exact: boolean): AuthError {
  const why = err.code === 'EADDRINUSE' ? `port ${port} on 127.0.0.1 is in use` : err.message;
  return new AuthError(
    'callback-port',
    `Cannot listen for the sign-in redirect: ${why}.${exact && port ? ' Free it or change oauth.callbackPort.' : ''}`,
  );
}

function onRequest(l: Listener, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  const outcome = readOutcome(url.searchParams);
  if (l.settled) res.writeHead(409, { 'content-type': 'text/plain' }).end('A sign-in response was already received.');
  else if (l.deliver) l.deliver(outcome, res);
  else if (l.early.length < MAX_EARLY) l.early.push({ outcome, res });
  else res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Busy; try again.');
}

/** What the redirect's query says: a code, or the server's refusal. */
function readOutcome(p: URLSearchParams): Outcome {
  const state = p.get('state') ?? undefined;
  const error = p.get('error');
  if (error) {
    const desc = p.get('error_description');
    const what =
      error === 'access_denied' ? 'Access was denied' : `The authorization server refused the request (${error})`;
    return { error: new AuthError('denied', `${what}${desc ? `: ${desc.slice(0, 200)}` : ''}.`), state };
  }
  const code = p.get('code');
  const iss = p.get('iss');
  return code
    ? { code, state: state ?? '', ...(iss !== null ? { iss } : {}) }
    : { error: new AuthError('denied', 'The redirect carried no authorization code.'), state };
}

function openSession(l: Listener, redirectUrl: string, clock: Clock, timeoutMs: number): RedirectSession {
  let waiting = false;
  const session: RedirectSession = {
    redirectUrl,
    close: () => l.stop(true),
    waitForCode(expectedState: string, signal?: AbortSignal): Promise<string> {
      if (waiting) return Promise.reject(new Error('waitForCode may only be called once per session'));
      waiting = true;
      return new Promise<string>((res, rej) => {
        const cleanups: (() => void)[] = [];
        const finish = (fn: () => void) => {
          for (const c of cleanups.splice(0)) c();
          l.deliver = undefined;
          l.settled = true;
          fn();
          void l.stop(false);
        };
        const onAbort = () => finish(() => rej(new AuthError('cancelled', 'Sign-in was cancelled.')));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const timer: Disposable = clock.setTimeout(() => finish(() => rej(timeoutError(timeoutMs))), timeoutMs);
        cleanups.push(
          () => timer.dispose(),
          () => signal?.removeEventListener('abort', onAbort),
        );
        l.deliver = (outcome, response) => {
          const ours = answerBrowser(outcome, response, expectedState);
          if (!ours) return;
          if ('error' in ours) return finish(() => rej(ours.error));
          if (ours.iss !== undefined) session.issuer = ours.iss;
          finish(() => res(ours.code));
        };
        for (const e of l.early.splice(0)) {
          if (l.deliver) l.deliver(e.outcome, e.res);
          else e.res.writeHead(409, { 'content-type': 'text/plain' }).end('A sign-in response was already received.');
        }
      });
    },
  };
  return session;
}

function timeoutError(timeoutMs: number): AuthError {
  return new AuthError(
    'timeout',
    `No answer from the browser within ${Math.round(timeoutMs / 60000)} minutes; sign-in timed out.`,
  );
}

/**
 * Sends the browser its page and returns the outcome when the redirect belongs to this sign-in.
 * The state is checked first: a redirect we did not start (anything on this machine can send one)
 * gets an error page and neither reports an error nor ends the sign-in (`undefined`): the user's
 * real redirect may still come, until the timeout.
 */
function answerBrowser(outcome: Outcome, response: ServerResponse, expectedState: string): Outcome | undefined {
  const send = (status: number, html: string) =>
    response
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      })
      .end(html);
  if (outcome.state !== expectedState) {
    send(
      400,
      errorPage(
        'This sign-in response does not belong to the sign-in MCP Host started (state mismatch); it was ignored.',
      ),
    );
    return undefined;
  }
  if ('error' in outcome) send(400, errorPage(outcome.error.message));
  else send(200, successPage());
  return outcome;
}
