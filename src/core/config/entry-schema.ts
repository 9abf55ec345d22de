/**
 * The zod schema of one server entry, with the docs each field carries into the generated JSON
 * schemas (scripts/gen-schema.mjs). What the shape does not say (command or url, the type that
 * fits them) is the rule table of entry-rules.ts.
 */
import * as z from 'zod/v4';
import { DEV_DOCS, ENTRY_DOCS, OAUTH_DOCS, OAUTH_OBJECT_DOCS, REGISTRY_DOCS, SERVER_DOCS } from './schema-docs.js';
import { sandboxSettingsSchema } from './sandbox-settings-schema.js';

const oauthSchema = z
  .object({
    clientId: z.string().min(1, { error: 'must not be empty' }).meta(OAUTH_DOCS.clientId).optional(),
    callbackPort: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be a port between 1 and 65535' })
      .max(65535, { error: 'must be a port between 1 and 65535' })
      .meta(OAUTH_DOCS.callbackPort)
      .optional(),
    authServerMetadataUrl: z
      .string()
      .refine((u) => isHttpsUrl(u), { error: 'must be an https:// URL (metadata is only fetched over HTTPS)' })
      .meta(OAUTH_DOCS.authServerMetadataUrl)
      .optional(),
    scopes: z.array(z.string()).meta(OAUTH_DOCS.scopes).optional(),
    // Machine-to-machine sign-in (SEP-1046): no browser, the client authenticates itself.
    grantType: z
      .enum(['authorization_code', 'client_credentials', 'jwt-bearer'], {
        error: 'must be "authorization_code", "client_credentials" or "jwt-bearer"',
      })
      .meta(OAUTH_DOCS.grantType)
      .optional(),
    tokenEndpointAuthMethod: z
      .enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt'], {
        error: 'must be "client_secret_basic", "client_secret_post" or "private_key_jwt"',
      })
      .meta(OAUTH_DOCS.tokenEndpointAuthMethod)
      .optional(),
    signingAlgorithm: z.string().min(1, { error: 'must not be empty' }).meta(OAUTH_DOCS.signingAlgorithm).optional(),
    issuer: z
      .string()
      .refine((u) => isUrl(u), { error: "must be the authorization server's issuer URL" })
      .meta(OAUTH_DOCS.issuer)
      .optional(),
    clientMetadataUrl: z
      .string()
      .refine((u) => isHttpsUrl(u) && new URL(u).pathname !== '/', {
        error: 'must be an https:// URL with a path (where the client ID metadata document is published)',
      })
      .meta(OAUTH_DOCS.clientMetadataUrl)
      .optional(),
  })
  .meta(OAUTH_OBJECT_DOCS);

/** `dev` as VS Code's mcp.json writes it: restart on file changes, start under the debugger. */
const devSchema = z
  .object({
    watch: z
      .union([
        z.string().min(1, { error: 'must not be empty' }),
        z.array(z.string().min(1, { error: 'must not be empty' })),
      ])
      .meta(DEV_DOCS.watch)
      .optional(),
    debug: z
      .object({ type: z.enum(['node', 'python'], { error: 'must be "node" or "python"' }).meta(DEV_DOCS.debugType) })
      .meta(DEV_DOCS.debug)
      .optional(),
  })
  .meta(DEV_DOCS.object);

/**
 * Shape of one server entry as written in a file (before type resolution and expansion).
 * Unknown keys are ignored: other apps add their own (`autoApprove`, `alwaysAllow`, ...).
 */
export const serverEntrySchema = z
  .object({
    // Any string is accepted here (aliases and typos get their own messages below); the docs list the valid ones.
    type: z.string().meta(ENTRY_DOCS.type).optional(),
    command: z.string().meta(ENTRY_DOCS.command).optional(),
    args: z.array(z.string()).meta(ENTRY_DOCS.args).optional(),
    // Numbers and booleans are common in hand-written env blocks ("PORT": 3000); they become strings.
    env: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .meta(ENTRY_DOCS.env)
      .optional(),
    cwd: z.string().meta(ENTRY_DOCS.cwd).optional(),
    envFile: z.string().meta(ENTRY_DOCS.envFile).optional(),
    url: z.string().meta(ENTRY_DOCS.url).optional(),
    headers: z.record(z.string(), z.string()).meta(ENTRY_DOCS.headers).optional(),
    oauth: oauthSchema.optional(),
    timeout: z
      .number()
      .positive({ error: 'must be a positive number of milliseconds' })
      .meta(ENTRY_DOCS.timeout)
      .optional(),
    toolTimeout: z
      .number()
      .positive({ error: 'must be a positive number of milliseconds' })
      .meta(ENTRY_DOCS.toolTimeout)
      .optional(),
    disabled: z.boolean().meta(ENTRY_DOCS.disabled).optional(),
    dev: devSchema.optional(),
    headersHelper: z.string().min(1, { error: 'must not be empty' }).meta(ENTRY_DOCS.headersHelper).optional(),
    registry: z
      .object({
        id: z.string().min(1, { error: 'must not be empty' }).meta(REGISTRY_DOCS.id),
        version: z.string().meta(REGISTRY_DOCS.version).optional(),
      })
      .meta(REGISTRY_DOCS.object)
      .optional(),
    sandboxEnabled: z.boolean().meta(ENTRY_DOCS.sandboxEnabled).optional(),
    sandbox: sandboxSettingsSchema.optional(),
  })
  .meta(SERVER_DOCS);

export type ServerEntryInput = z.infer<typeof serverEntrySchema>;

/** The keys the schema knows; media/mcp-server.schema.json must describe the same set. */
export const SERVER_ENTRY_KEYS = Object.keys(serverEntrySchema.shape);

function isUrl(u: string): boolean {
  return URL.canParse(u);
}

function isHttpsUrl(u: string): boolean {
  try {
    return new URL(u).protocol === 'https:';
  } catch {
    return false;
  }
}
