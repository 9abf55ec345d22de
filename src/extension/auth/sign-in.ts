/**
 * A server's sign-in and sign-out as the user sees them: a cancellable progress notification that
 * says which step waits, and a message that says what happened to the tokens.
 */
import * as vscode from 'vscode';
import { AuthError, usesCrossAppAccess, type HostAuth } from '../../core/auth/index.js';
import type { ServerDefinition } from '../../core/config/index.js';
import type { Logger } from '../../core/ports.js';
import { errorMessage } from '../../core/errors.js';
import { askClientSecret } from './client-secrets.js';
import type { EditorIdp } from './enterprise.js';

/** `EditorAuth.authenticate`: resolves when signed in or cancelled, rejects with what failed. */
export async function signIn(core: HostAuth, idp: EditorIdp, log: Logger, def: ServerDefinition): Promise<void> {
  // A server that waits for the company IdP: its one action is that sign-in, then the exchange runs unprompted.
  if (usesCrossAppAccess(def) && !(await idp.handle.idToken())) {
    if (!(await idp.signIn())) return;
    await core.clearNeedsAuth(def);
    return;
  }
  if (!(await askClientSecret(core, def))) return;
  log.info(`${def.name}: signing in`);
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Signing in to ${def.name}`, cancellable: true },
      async (progress, token) => {
        const ac = new AbortController();
        const sub = token.onCancellationRequested(() => ac.abort());
        try {
          progress.report({ message: 'finding the authorization server…' });
          await core.authenticate(def, {
            signal: ac.signal,
            onAuthorizationUrl: () => progress.report({ message: 'complete the sign-in in your browser…' }),
          });
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (err) {
    if (err instanceof AuthError && err.code === 'cancelled') {
      log.info(`${def.name}: sign-in cancelled`);
      return;
    }
    const message = errorMessage(err);
    log.warn(`${def.name}: sign-in failed: ${message}`);
    throw new AuthError(err instanceof AuthError ? err.code : 'token', `Sign-in to ${def.name} failed: ${message}`);
  }
  log.info(`${def.name}: signed in`);
  void vscode.window.showInformationMessage(`Signed in to ${def.name}.`);
}

/** `EditorAuth.signOut`: the message says whether the server's tokens still work elsewhere. */
export async function signOut(core: HostAuth, log: Logger, def: ServerDefinition): Promise<void> {
  const outcome = await core.signOut(def);
  log.info(`${def.name}: signed out; stored tokens removed`);
  const revoked =
    outcome.kind === 'revoked'
      ? ' The authorization server revoked the tokens.'
      : outcome.kind === 'failed'
        ? ' The authorization server could not revoke the tokens (see the log); they stay valid there until they expire.'
        : '';
  void vscode.window.showInformationMessage(`Signed out of ${def.name}.${revoked}`);
}
