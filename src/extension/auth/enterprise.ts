/**
 * The company IdP in the editor: which one is in force (managed file first, then the user's
 * `mcpHost.enterpriseIdp`, core/auth/enterprise/settings.ts), its tokens in SecretStorage, and the
 * Sign In / Sign Out commands. Sign Out also signs out every server whose token came through it.
 */
import * as vscode from 'vscode';
import { enterpriseIdpSettings, IdpHandle, IdpSession } from '../../core/auth/index.js';
import { AuthError } from '../../core/auth/index.js';
import type { RedirectReceiver } from '../../core/auth/index.js';
import { managedPolicyFiles, type ServerDefinition } from '../../core/config/index.js';
import type { BrowserOpener, Logger } from '../../core/ports.js';
import { secretStore } from '../ports/secrets.js';

export interface EditorIdp extends vscode.Disposable {
  /** What `createHostAuth` keeps: the session in force, swapped when settings change. */
  readonly handle: IdpHandle;
  /** Re-reads the managed files and the setting; the first call happens at creation. */
  refresh(): Promise<void>;
  signIn(): Promise<boolean>;
  /** Signs out of the IdP and of those `servers` whose token came through it; returns those. */
  signOut(
    servers: readonly ServerDefinition[],
    viaIdp: (def: ServerDefinition) => Promise<boolean>,
    signOutServer: (def: ServerDefinition) => Promise<void>,
  ): Promise<ServerDefinition[]>;
}

export function createEditorIdp(
  context: vscode.ExtensionContext,
  log: Logger,
  browser: BrowserOpener,
  receiver: RedirectReceiver,
): EditorIdp {
  const handle = new IdpHandle();
  let reading: Promise<void> = Promise.resolve();

  async function read(): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('mcpHost');
    const choice = await enterpriseIdpSettings(
      managedPolicyFiles({ managedPath: cfg.get<string>('managedConfigPath') || undefined, env: process.env }),
      cfg.get('enterpriseIdp') ?? undefined,
    );
    for (const p of choice.problems) log.warn(p);
    const s = choice.settings;
    const same = handle.current && s && JSON.stringify(handle.current.settings) === JSON.stringify(s);
    if (same) return;
    handle.set(
      s ? new IdpSession(s, { secrets: secretStore(context.secrets), browser, receiver, logger: log }) : undefined,
    );
    if (s) log.info(`company identity provider ${s.issuer} (from ${choice.from})`);
  }

  const refresh = (): Promise<void> => (reading = reading.then(read, read));
  void refresh();
  const sub = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('mcpHost.enterpriseIdp') || e.affectsConfiguration('mcpHost.managedConfigPath'))
      void refresh();
  });

  async function session(): Promise<IdpSession> {
    await refresh();
    const s = handle.current;
    if (!s)
      throw new AuthError(
        'config',
        'No company identity provider is configured: an administrator sets "enterpriseIdp" in the managed file; for yourself, set mcpHost.enterpriseIdp.',
      );
    return s;
  }

  return {
    handle,
    refresh,
    async signIn() {
      return signInShowingProgress(await session());
    },
    async signOut(servers, viaIdp, signOutServer) {
      const s = await session();
      const through: ServerDefinition[] = [];
      for (const def of servers) if (await viaIdp(def)) through.push(def);
      for (const def of through) await signOutServer(def);
      await s.signOut();
      log.info(`signed out of the identity provider ${s.settings.issuer}`);
      void vscode.window.showInformationMessage(
        `Signed out of ${s.settings.issuer}${through.length ? ` and of ${through.map((d) => d.name).join(', ')}` : ''}.`,
      );
      return through;
    },
    dispose() {
      sub.dispose();
    },
  };
}

/** The sign-in in the browser under a cancellable notification; false when the user cancelled it. */
async function signInShowingProgress(s: IdpSession): Promise<boolean> {
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Signing in to ${s.settings.issuer}`,
        cancellable: true,
      },
      async (progress, token) => {
        const ac = new AbortController();
        const cancel = token.onCancellationRequested(() => ac.abort());
        progress.report({ message: 'complete the sign-in in your browser…' });
        try {
          await s.signIn(ac.signal);
        } finally {
          cancel.dispose();
        }
      },
    );
  } catch (err) {
    if (err instanceof AuthError && err.code === 'cancelled') return false;
    throw err;
  }
  void vscode.window.showInformationMessage(`Signed in to ${s.settings.issuer}.`);
  return true;
}
