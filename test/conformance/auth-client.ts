// Adapter for the conformance suite's auth/* client scenarios. It runs the real host (createHost)
// with our OAuth provider (createHostAuth) exactly as the editor does: a connect that needs auth
// ends in `needs-auth`, then the explicit sign-in runs and the server is restarted. The only
// stand-in is the browser: it fetches the authorization URL (the suite's authorization server
// auto-approves) and delivers the redirect it answers with to our loopback receiver.
// Run: node --import tsx test/conformance/auth-client.ts URL
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostTool } from '../../src/core/host-api.js';
import type { McpHost } from '../../src/core/host.js';
import { createHostAuth, createLoopbackReceiver, isAuthRequired, type HostAuth } from '../../src/core/auth/index.js';
import type { OAuthSettings, ServerDefinition } from '../../src/core/config/types.js';
import { createHost } from '../../src/core/host.js';
import type { BrowserOpener, KeyValueStore, Logger, SecretStore } from '../../src/core/ports.js';

const SERVER = 'conformance';
/** Where this client's metadata document would be published (SEP-991); the suite expects this URL. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Sign-ins per operation before giving up (the suite's retry-limit scenario allows at most 3). */
const MAX_SIGN_INS = 2;

const logger: Logger = {
  trace() {},
  debug() {},
  info: (m) => process.stderr.write(`[info] ${m}\n`),
  warn: (m) => process.stderr.write(`[warn] ${m}\n`),
  error: (m) => process.stderr.write(`[error] ${m}\n`),
};

const secretMap = new Map<string, string>();
const secrets: SecretStore = {
  get: async (k) => secretMap.get(k),
  store: async (k, v) => void secretMap.set(k, v),
  delete: async (k) => void secretMap.delete(k),
};
const kvMap = new Map<string, unknown>();
const kv: KeyValueStore = {
  get: <T>(k: string) => kvMap.get(k) as T | undefined,
  update: async (k, v) => void kvMap.set(k, v),
};

/** A browser that follows the authorization server's redirect back to our loopback listener. */
const browser: BrowserOpener = {
  async open(url) {
    void (async () => {
      const res = await fetch(url, { redirect: 'manual' });
      const location = res.headers.get('location');
      await res.body?.cancel();
      if (!location) throw new Error(`authorization endpoint answered HTTP ${res.status} without a redirect`);
      const back = await fetch(new URL(location, url));
      await back.body?.cancel();
    })().catch((err: unknown) => logger.error(`browser: ${err instanceof Error ? err.message : String(err)}`));
    return true;
  },
};

interface ScenarioContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** Cross-app access (SEP-990): the IdP and the ID token a sign-in to it would have produced. */
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
}

/**
 * The server entry a user would write for the scenario. Machine-to-machine scenarios (SEP-1046)
 * are a configuration choice (`grantType`), not something a client can detect, so the adapter
 * plays the user who configured it; every other scenario publishes a client ID metadata document URL
 * on the entry (per-server `oauth.clientMetadataUrl`).
 */
function definition(url: string, scenario: string, context: ScenarioContext): ServerDefinition {
  // Enterprise-managed authorization is the administrator's configuration choice, like client credentials.
  if (scenario.startsWith('auth/cross-app-access-'))
    return {
      name: SERVER,
      config: { type: 'http', url, oauth: { clientId: context.client_id, grantType: 'jwt-bearer' } },
      source: { scope: 'dynamic', file: 'conformance', jsonPath: [SERVER] },
      signature: `url:${url}`,
      hash: `conformance:${url}`,
    };
  const oauth: OAuthSettings = scenario.startsWith('auth/client-credentials-')
    ? {
        clientId: context.client_id,
        grantType: 'client_credentials',
        tokenEndpointAuthMethod: context.private_key_pem ? 'private_key_jwt' : 'client_secret_basic',
        ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
      }
    : { clientMetadataUrl: CLIENT_METADATA_URL, ...(context.client_id ? { clientId: context.client_id } : {}) };
  return {
    name: SERVER,
    config: { type: 'http', url, oauth },
    source: { scope: 'dynamic', file: 'conformance', jsonPath: [SERVER] },
    signature: `url:${url}`,
    hash: `conformance:${url}`,
  };
}

/** Connected, signing in (at most MAX_SIGN_INS times) whenever the host reports needs-auth. */
async function connect(host: McpHost, auth: HostAuth, def: ServerDefinition): Promise<HostTool[]> {
  for (let signIns = 0; ; signIns++) {
    await host.whenSettled();
    const state = host.server(SERVER)?.state;
    if (state?.kind === 'connected') return host.server(SERVER)!.tools;
    if (state?.kind !== 'needs-auth' || signIns >= MAX_SIGN_INS)
      throw new Error(`not connected: ${JSON.stringify(state)}`);
    logger.info(`needs-auth: ${state.message}; signing in`);
    await auth.authenticate(def);
    await host.restart(SERVER);
  }
}

function needsAuth(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: unknown };
  return e?.code === 'needs-auth' || isAuthRequired(err) || isAuthRequired(e?.cause);
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!url || !/^https?:\/\//.test(url)) throw new Error('usage: auth-client.ts URL');
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;

  const auth = createHostAuth({
    secrets,
    kv,
    logger,
    browser,
    receiver: createLoopbackReceiver(),
    clientName: 'MCP Host (conformance)',
    // What the IdP sign-in leaves behind; the suite hands the ID token over instead of a login page.
    ...(context.idp_token_endpoint && context.idp_client_id
      ? {
          enterpriseIdp: {
            tokenEndpoint: () => Promise.resolve(context.idp_token_endpoint!),
            clientId: context.idp_client_id,
            idToken: () => Promise.resolve(context.idp_id_token),
          },
        }
      : {}),
  });
  const def = definition(url, scenario, context);
  // What the editor asks for at Authenticate (and keeps in SecretStorage).
  if (context.client_secret) await auth.setClientSecret(def, context.client_secret);
  if (context.private_key_pem) await auth.setPrivateKey(def, context.private_key_pem);

  const blobDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-auth-'));
  const host = createHost({
    logger,
    blobDir,
    authProvider: (d) => auth.providerFor(d),
    clientInfo: { name: 'mcp-host-conformance', version: '0.1.0' },
  });
  try {
    host.setDefinitions([def]);
    const tools = await connect(host, auth, def);
    logger.info(`${scenario}: connected, ${tools.length} tools`);
    for (const tool of tools) {
      for (let signIns = 0; ; signIns++) {
        try {
          const result = await host.callTool(SERVER, tool.name, {}, { timeoutMs: 20_000 });
          logger.info(`${tool.name} → ${result.isError ? 'error' : 'ok'}`);
          break;
        } catch (err) {
          // Step-up: the call asked for a wider scope; sign in again (the provider kept the scope).
          if (!needsAuth(err) || signIns >= MAX_SIGN_INS) throw err;
          logger.info(`${tool.name} needs a new sign-in; signing in`);
          await auth.authenticate(def);
          await host.restart(SERVER);
          await connect(host, auth, def);
        }
      }
    }
  } finally {
    await host.dispose();
    await rm(blobDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `conformance auth client: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
