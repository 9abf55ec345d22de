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
import * as vscode from 'vscode';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import {
  createHostAuth,
  createLoopbackReceiver,
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
import { createEditorIdp } from './enterprise.js';
import { signIn, signOut } from './sign-in.js';

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

  return {
    providerFor: (def) => core.providerFor(def),
    needsAuthCache: core.needsAuthCache,
    clearNeedsAuth: (def) => core.clearNeedsAuth(def),
    authenticate: (def) => signIn(core, idp, log, def),
    signOut: (def) => signOut(core, log, def),
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
