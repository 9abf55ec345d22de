/**
 * `mcp-host auth SERVER` and `mcp-host logout SERVER` (the host's auth is in ../host-auth.ts).
 * Tokens live in the CLI's own config folder (../auth-store.ts), never in the project.
 */
import { readFile } from 'node:fs/promises';
import { AuthError, credentialKind, usesClientCredentials, type HostAuth } from '../../core/auth/index.js';
import type { ServerDefinition } from '../../core/config/index.js';
import type { ParsedArgs } from '../args.js';
import { CliError, EXIT, usageError, type ExitCode } from '../errors.js';
import { createCliAuth, createCliIdp, type CliAuthOptions } from '../host-auth.js';
import type { IdpSettings } from '../../core/auth/index.js';
import type { Session } from '../session.js';

export type { CliAuthOptions } from '../host-auth.js';
import { errorMessage } from '../../core/errors.js';

function remoteOrUsage(session: Session, name: string | undefined): ServerDefinition {
  if (!name) throw usageError('missing SERVER', 'Usage: mcp-host auth SERVER | mcp-host logout SERVER');
  const def = session.require(name);
  if (def.config.type !== 'http' && def.config.type !== 'sse') {
    throw usageError(`${name} is a ${def.config.type} server; OAuth sign-in is only for http and sse servers.`);
  }
  return def;
}

function cliError(err: unknown): CliError {
  if (err instanceof AuthError)
    return new CliError(
      err.code === 'config' || err.code === 'callback-port' ? EXIT.usage : EXIT.connection,
      err.message,
    );
  return new CliError(EXIT.connection, errorMessage(err));
}

/**
 * A client_credentials server (SEP-1046) takes its secret from MCP_HOST_CLIENT_SECRET or its
 * private key from the file MCP_HOST_PRIVATE_KEY_FILE (the CLI never prompts); it is kept in the
 * secrets file, so later commands need neither.
 */
async function storeClientCredential(
  auth: HostAuth,
  def: ServerDefinition,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!usesClientCredentials(def)) return;
  const kind = credentialKind(def);
  if (kind === 'client secret' && env.MCP_HOST_CLIENT_SECRET)
    await auth.setClientSecret(def, env.MCP_HOST_CLIENT_SECRET);
  if (kind === 'private key' && env.MCP_HOST_PRIVATE_KEY_FILE) {
    try {
      await auth.setPrivateKey(def, await readFile(env.MCP_HOST_PRIVATE_KEY_FILE, 'utf8'));
    } catch (err) {
      throw usageError(
        `MCP_HOST_PRIVATE_KEY_FILE ${env.MCP_HOST_PRIVATE_KEY_FILE}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
  }
  const missing = await auth.missingClientCredential(def);
  if (missing) {
    throw usageError(
      `${def.name} uses client credentials and no ${missing} is stored`,
      missing === 'client secret'
        ? 'Set MCP_HOST_CLIENT_SECRET and run mcp-host auth again.'
        : 'Set MCP_HOST_PRIVATE_KEY_FILE to the PEM or JWK file and run mcp-host auth again.',
    );
  }
}

/** `mcp-host auth SERVER`: opens the browser (and prints the URL), waits for the loopback redirect. */
export async function authCommand(session: Session, args: ParsedArgs, opts: CliAuthOptions = {}): Promise<ExitCode> {
  if (args.idp) return idpSignIn(session, args, opts);
  const def = remoteOrUsage(session, args.positionals[0]);
  const auth = createCliAuth(session.io, { ...opts, idp: session.idp.settings });
  await storeClientCredential(auth, def, session.io.env);
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    await auth.authenticate(def, {
      signal: ac.signal,
      continueWithoutBrowser: true,
      onAuthorizationUrl: (url) => {
        session.io.stderr(
          `Opening your browser to sign in to ${def.name}. If it does not open, visit:\n\n  ${url}\n\nWaiting for the sign-in (5 minutes; Ctrl+C to cancel)…\n`,
        );
      },
    });
  } catch (err) {
    throw cliError(err);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  session.io.stdout(
    args.json ? `${JSON.stringify({ server: def.name, signedIn: true })}\n` : `Signed in to ${def.name}.\n`,
  );
  return EXIT.ok;
}

/** `mcp-host logout SERVER`: forgets the server's tokens and client registration. */
export async function logoutCommand(session: Session, args: ParsedArgs): Promise<ExitCode> {
  if (args.idp) return idpSignOut(session, args);
  const def = remoteOrUsage(session, args.positionals[0]);
  const auth = createCliAuth(session.io);
  const had = await auth.hasSession(def);
  const outcome = await auth.signOut(def);
  const revoked = outcome.kind === 'revoked';
  session.io.stdout(
    args.json
      ? `${JSON.stringify({ server: def.name, signedOut: true, hadSession: had, revoked })}\n`
      : had
        ? `Signed out of ${def.name}.${revoked ? ' The authorization server revoked the tokens.' : ''}\n`
        : `${def.name} had no stored sign-in.\n`,
  );
  return EXIT.ok;
}

function requireIdp(session: Session): IdpSettings {
  const s = session.idp.settings;
  if (!s)
    throw usageError(
      'no company identity provider is configured',
      'An administrator sets "enterpriseIdp" in the managed file; for yourself, set mcpHost.enterpriseIdp in settings.json.',
    );
  return s;
}

/** `mcp-host auth --idp`: the one browser sign-in every "grantType": "jwt-bearer" server then uses. */
async function idpSignIn(session: Session, args: ParsedArgs, opts: CliAuthOptions): Promise<ExitCode> {
  const settings = requireIdp(session);
  const idp = createCliIdp(session.io, settings, opts);
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    session.io.stderr(`Opening your browser to sign in to ${settings.issuer} (5 minutes; Ctrl+C to cancel)…\n`);
    await idp.signIn(ac.signal);
  } catch (err) {
    throw cliError(err);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  session.io.stdout(
    args.json ? `${JSON.stringify({ idp: settings.issuer, signedIn: true })}\n` : `Signed in to ${settings.issuer}.\n`,
  );
  return EXIT.ok;
}

/** `mcp-host logout --idp`: forgets the IdP sign-in and every token obtained through it. */
async function idpSignOut(session: Session, args: ParsedArgs): Promise<ExitCode> {
  const settings = requireIdp(session);
  const auth = createCliAuth(session.io, { idp: settings });
  const servers = [];
  for (const def of session.config.servers) if (await auth.viaIdp(def)) servers.push(def);
  for (const def of servers) await auth.signOut(def);
  await createCliIdp(session.io, settings).signOut();
  session.io.stdout(
    args.json
      ? `${JSON.stringify({ idp: settings.issuer, signedOut: true, servers: servers.map((d) => d.name) })}\n`
      : `Signed out of ${settings.issuer}${servers.length ? ` and of ${servers.map((d) => d.name).join(', ')}` : ''}.\n`,
  );
  return EXIT.ok;
}
