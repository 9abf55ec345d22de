/**
 * OAuth in the editor: the core's HostAuth over SecretStorage (tokens), globalState (needs-auth
 * cache), `env.openExternal` (browser) and a redirect receiver chosen for the window: a loopback
 * listener on desktop, the UriHandler + `env.asExternalUri` in remote and web windows.
 *
 * main.ts wiring:
 *   const auth = createEditorAuth(context, logger);
 *   createHost({ ..., authProvider: (def) => auth.providerFor(def) });
 *   registerServerCommands({ ..., auth: () => auth });
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import {
  AuthError,
  createHostAuth,
  createLoopbackReceiver,
  usesClientCredentials,
  usesCrossAppAccess,
  type HostAuth,
  type NeedsAuthCache,
  type RedirectReceiver,
} from '../../core/auth/index.js';
import type { ServerDefinition } from '../../core/config/index.js';
import type { BrowserOpener, Logger } from '../../core/ports.js';
import { mementoStore } from '../ports/memento.js';
import { secretStore } from '../ports/secrets.js';
import { externalOpener } from './opener.js';
import { UriRedirectReceiver } from './uri-receiver.js';
import { errorMessage } from '../../core/errors.js';
import { createEditorIdp } from './enterprise.js';

export interface EditorAuth extends vscode.Disposable {
  /** For `HostOptions.authProvider`: background provider (stored tokens, refresh; never a browser). */
  providerFor(def: ServerDefinition): OAuthClientProvider | undefined;
  /**
   * Signs in with a cancellable progress notification. Resolves when tokens are stored, or when
   * the user cancelled; rejects with an AuthError whose message says what failed and what to do.
   */
  authenticate(def: ServerDefinition): Promise<void>;
  /** Revokes the tokens where the authorization server offers it, then forgets tokens, registration and client secret or key. */
  signOut(def: ServerDefinition): Promise<void>;
  /** Quiet period after needs-auth (15 minutes without probing the server). */
  readonly needsAuthCache: NeedsAuthCache;
  /** Ends the quiet period: call before a user-initiated Start / Restart of the server. */
  clearNeedsAuth(def: ServerDefinition): Promise<void>;
  /** The company IdP sign-in; false when the user cancelled. */
  signInEnterprise(): Promise<boolean>;
  /** Signs out of the company IdP and of every server in `servers` whose token came through it. */
  signOutEnterprise(servers: readonly ServerDefinition[]): Promise<ServerDefinition[]>;
}

/** True where a loopback port on this machine is not reachable from the user's browser. */
export function needsUriRedirect(): boolean {
  return vscode.env.uiKind === vscode.UIKind.Web || vscode.env.remoteName !== undefined;
}

const browser: BrowserOpener = externalOpener((target) => vscode.env.openExternal(target as unknown as vscode.Uri));

export function createEditorAuth(context: vscode.ExtensionContext, log: Logger): EditorAuth {
  const uriReceiver = needsUriRedirect() ? new UriRedirectReceiver(context.extension.id) : undefined;
  const receiver: RedirectReceiver = uriReceiver ?? createLoopbackReceiver();
  const idp = createEditorIdp(context, log, browser, receiver);
  const core: HostAuth = createHostAuth({
    secrets: secretStore(context.secrets),
    kv: mementoStore(context.globalState),
    logger: log,
    browser,
    receiver,
    clientName: 'MCP Host for VS Code',
    enterpriseIdp: idp.handle,
  });

  /** For a client_credentials server: its secret (typed) or private key (a PEM/JWK file, read once). */
  async function askClientCredential(def: ServerDefinition): Promise<boolean> {
    const kind = await core.missingClientCredential(def);
    if (!kind) return true;
    const clientId = (def.config as { oauth?: { clientId?: string } }).oauth?.clientId ?? '';
    if (kind === 'client secret') {
      const secret = await vscode.window.showInputBox({
        title: `Client credentials for ${def.name}`,
        prompt: `Client secret of client "${clientId}" (kept in the OS keychain, never in a file).`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v ? undefined : 'A machine-to-machine client needs its secret.'),
      });
      if (!secret) return false;
      await core.setClientSecret(def, secret);
      return true;
    }
    const path = await vscode.window.showInputBox({
      title: `Client credentials for ${def.name}`,
      prompt: `Path of the private key file (PKCS#8 PEM or JWK) of client "${clientId}". Its contents are copied to the OS keychain.`,
      ignoreFocusOut: true,
    });
    if (!path) return false;
    let text: string;
    try {
      text = await readFile(path.trim().replace(/^~(?=\/)/, homedir()), 'utf8');
    } catch (err) {
      throw new AuthError(
        'config',
        `Cannot read the private key file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`,
      );
    }
    await core.setPrivateKey(def, text);
    return true;
  }

  async function askClientSecret(def: ServerDefinition): Promise<boolean> {
    if (usesClientCredentials(def)) return askClientCredential(def);
    const clientId = def.config.type === 'http' || def.config.type === 'sse' ? def.config.oauth?.clientId : undefined;
    if (!clientId || (await core.hasClientSecret(def))) return true;
    const secret = await vscode.window.showInputBox({
      title: `Sign in to ${def.name}`,
      prompt: `Client secret for client ID "${clientId}" (kept in the OS keychain). Leave empty for a public client.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (secret === undefined) return false;
    if (secret) await core.setClientSecret(def, secret);
    return true;
  }

  return {
    providerFor: (def) => core.providerFor(def),
    needsAuthCache: core.needsAuthCache,
    clearNeedsAuth: (def) => core.clearNeedsAuth(def),
    async authenticate(def) {
      // A server that waits for the company IdP: its one action is that sign-in, then the exchange runs unprompted.
      if (usesCrossAppAccess(def) && !(await idp.handle.idToken())) {
        if (!(await idp.signIn())) return;
        await core.clearNeedsAuth(def);
        return;
      }
      if (!(await askClientSecret(def))) return;
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
    },
    async signOut(def) {
      const outcome = await core.signOut(def);
      log.info(`${def.name}: signed out; stored tokens removed`);
      const revoked =
        outcome.kind === 'revoked'
          ? ' The authorization server revoked the tokens.'
          : outcome.kind === 'failed'
            ? ' The authorization server could not revoke the tokens (see the log); they stay valid there until they expire.'
            : '';
      void vscode.window.showInformationMessage(`Signed out of ${def.name}.${revoked}`);
    },
    signInEnterprise: () => idp.signIn(),
    signOutEnterprise: (servers) =>
      idp.signOut(
        servers,
        (def) => core.viaIdp(def),
        async (def) => {
          await core.signOut(def);
        },
      ),
    dispose() {
      idp.dispose();
      uriReceiver?.dispose();
    },
  };
}
