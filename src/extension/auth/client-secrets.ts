/**
 * The client secrets and keys a sign-in asks the user for before it starts: a confidential
 * client's secret, or a machine-to-machine client's secret or private key. All go to the OS keychain.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { AuthError, usesClientCredentials, type HostAuth } from '../../core/auth/index.js';
import type { ServerDefinition } from '../../core/config/index.js';

/** True when the sign-in may go on (nothing needed, or the user gave it); false when the user cancelled. */
export async function askClientSecret(core: HostAuth, def: ServerDefinition): Promise<boolean> {
  if (usesClientCredentials(def)) return askClientCredential(core, def);
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

/** For a client_credentials server: its secret (typed) or private key (a PEM/JWK file, read once). */
async function askClientCredential(core: HostAuth, def: ServerDefinition): Promise<boolean> {
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
