/**
 * The redirect receiver for remote and web windows, where a loopback port on the extension host
 * is not reachable from the user's browser: the authorization server redirects to the editor's
 * own URI (`vscode://publisher.name/oauth-callback`, made reachable by `env.asExternalUri`), and
 * VS Code hands it to our UriHandler.
 */
import * as vscode from 'vscode';
import { AuthError, REDIRECT_TIMEOUT_MS, type RedirectReceiver, type RedirectSession } from '../../core/auth/index.js';

const CALLBACK_PATH = '/oauth-callback';

export class UriRedirectReceiver implements RedirectReceiver, vscode.UriHandler, vscode.Disposable {
  private readonly waiters = new Set<(uri: vscode.Uri) => void>();
  private readonly registration: vscode.Disposable;

  constructor(private readonly extensionId: string) {
    this.registration = vscode.window.registerUriHandler(this);
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    for (const w of [...this.waiters]) w(uri);
  }

  async start(): Promise<RedirectSession> {
    const internal = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${CALLBACK_PATH}`);
    const external = await vscode.env.asExternalUri(internal);
    const waiters = this.waiters;
    let current: ((uri: vscode.Uri) => void) | undefined;
    const session: RedirectSession = {
      redirectUrl: external.toString(true),
      close: async () => {
        if (current) waiters.delete(current);
      },
      waitForCode(expectedState, signal) {
        return new Promise<string>((resolve, reject) => {
          const finish = (fn: () => void) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            if (current) waiters.delete(current);
            fn();
          };
          const onAbort = () => finish(() => reject(new AuthError('cancelled', 'Sign-in was cancelled.')));
          const timer = setTimeout(
            () =>
              finish(() =>
                reject(new AuthError('timeout', 'No answer from the browser within 5 minutes; sign-in timed out.')),
              ),
            REDIRECT_TIMEOUT_MS,
          );
          if (signal?.aborted) return onAbort();
          signal?.addEventListener('abort', onAbort, { once: true });
          current = (uri) => {
            const p = new URLSearchParams(uri.query);
            // Our state first: a URI we did not ask for (any web page can open one) must not
            // report an error or end the user's sign-in; the real redirect may still come.
            if (p.get('state') !== expectedState) return;
            const error = p.get('error');
            const code = p.get('code');
            if (error) {
              const desc = p.get('error_description');
              finish(() =>
                reject(
                  new AuthError(
                    'denied',
                    `${error === 'access_denied' ? 'Access was denied' : `The authorization server refused the request (${error})`}${desc ? `: ${desc.slice(0, 200)}` : ''}.`,
                  ),
                ),
              );
            } else if (!code) {
              finish(() => reject(new AuthError('denied', 'The redirect carried no authorization code.')));
            } else {
              const iss = p.get('iss');
              if (iss !== null) session.issuer = iss;
              finish(() => resolve(code));
            }
          };
          waiters.add(current);
        });
      },
    };
    return session;
  }

  dispose(): void {
    this.waiters.clear();
    this.registration.dispose();
  }
}
