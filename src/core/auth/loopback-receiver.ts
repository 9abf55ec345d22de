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

function listen(port: number, clock: Clock, timeoutMs: number, exact: boolean): Promise<RedirectSession> {
  let deliver: ((o: Outcome, res: ServerResponse) => void) | undefined;
  // Redirects that arrive before waitForCode knows the state (the browser can be quick); forged
  // ones among them must not crowd out the real one, so a few are held.
  const early: { outcome: Outcome; res: ServerResponse }[] = [];
  let settled = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const p = url.searchParams;
    const state = p.get('state') ?? undefined;
    let outcome: Outcome;
    const error = p.get('error');
    if (error) {
      const desc = p.get('error_description');
      const what =
        error === 'access_denied' ? 'Access was denied' : `The authorization server refused the request (${error})`;
      outcome = { error: new AuthError('denied', `${what}${desc ? `: ${desc.slice(0, 200)}` : ''}.`), state };
    } else {
      const code = p.get('code');
      const iss = p.get('iss');
      outcome = code
        ? { code, state: state ?? '', ...(iss !== null ? { iss } : {}) }
        : { error: new AuthError('denied', 'The redirect carried no authorization code.'), state };
    }
    if (settled) res.writeHead(409, { 'content-type': 'text/plain' }).end('A sign-in response was already received.');
    else if (deliver) deliver(outcome, res);
    else if (early.length < MAX_EARLY) early.push({ outcome, res });
    else res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Busy; try again.');
  });
  server.on('connection', (s) => s.unref());

  let closed = false;
  // Graceful after an answer (the page must reach the browser), abrupt when the caller gives up.
  const stop = (abrupt: boolean) =>
    new Promise<void>((resolve) => {
      if (closed) return resolve();
      closed = true;
      server.close(() => resolve());
      if (abrupt) server.closeAllConnections();
      else server.closeIdleConnections();
    });
  const close = () => stop(true);

  return new Promise<RedirectSession>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? `port ${port} on 127.0.0.1 is in use` : err.message;
      reject(
        new AuthError(
          'callback-port',
          `Cannot listen for the sign-in redirect: ${why}.${exact && port ? ' Free it or change oauth.callbackPort.' : ''}`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => {
      const actual = (server.address() as AddressInfo).port;
      let waiting = false;
      const session: RedirectSession = {
        redirectUrl: `http://127.0.0.1:${actual}${CALLBACK_PATH}`,
        close,
        waitForCode(expectedState: string, signal?: AbortSignal): Promise<string> {
          if (waiting) return Promise.reject(new Error('waitForCode may only be called once per session'));
          waiting = true;
          return new Promise<string>((res, rej) => {
            const cleanups: (() => void)[] = [];
            const finish = (fn: () => void) => {
              for (const c of cleanups.splice(0)) c();
              deliver = undefined;
              settled = true;
              fn();
              void stop(false);
            };
            const onAbort = () => finish(() => rej(new AuthError('cancelled', 'Sign-in was cancelled.')));
            if (signal?.aborted) return onAbort();
            signal?.addEventListener('abort', onAbort, { once: true });
            const timer: Disposable = clock.setTimeout(
              () =>
                finish(() =>
                  rej(
                    new AuthError(
                      'timeout',
                      `No answer from the browser within ${Math.round(timeoutMs / 60000)} minutes; sign-in timed out.`,
                    ),
                  ),
                ),
              timeoutMs,
            );
            cleanups.push(
              () => timer.dispose(),
              () => signal?.removeEventListener('abort', onAbort),
            );
            deliver = (outcome, response) => {
              const send = (status: number, html: string) =>
                response
                  .writeHead(status, {
                    'content-type': 'text/html; charset=utf-8',
                    'cache-control': 'no-store',
                    connection: 'close',
                  })
                  .end(html);
              // The state is checked first: a redirect we did not start (anything on this machine
              // can send one) gets an error page and neither reports an error nor ends the
              // sign-in: the user's real redirect may still come, until the timeout.
              if (outcome.state !== expectedState) {
                send(
                  400,
                  errorPage(
                    'This sign-in response does not belong to the sign-in MCP Host started (state mismatch); it was ignored.',
                  ),
                );
              } else if ('error' in outcome) {
                send(400, errorPage(outcome.error.message));
                finish(() => rej(outcome.error));
              } else {
                send(200, successPage());
                if (outcome.iss !== undefined) session.issuer = outcome.iss;
                finish(() => res(outcome.code));
              }
            };
            for (const e of early.splice(0)) {
              if (deliver) deliver(e.outcome, e.res);
              else
                e.res.writeHead(409, { 'content-type': 'text/plain' }).end('A sign-in response was already received.');
            }
          });
        },
      };
      resolve(session);
    });
  });
}
