/**
 * A server entry's shape checked without zod: the same fields and limits as entry-schema.ts, for
 * entries that are plainly right. Activation reads every config file, and zod (with the schema it
 * builds when it loads) waits in a bundle of its own (scripts/lib/deferred-modules.mjs), so a
 * well-formed file is read without it. Anything this is not sure of (a wrong type, a value out of
 * range, an `undefined`, a `__proto__` key) returns `undefined`, and schema.ts asks zod, whose issues
 * make the messages (the file and the JSON path of the field). test/unit/config/entry-check.test.ts
 * holds this to zod: whatever this accepts, zod accepts, with the same result.
 */
import type { ServerEntryInput } from './entry-schema.js';

const NO = Symbol('not plainly right');
type Check = (v: unknown) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str =
  (min = 0, ok: (s: string) => boolean = () => true): Check =>
  (v) =>
    typeof v === 'string' && v.length >= min && ok(v) ? v : NO;
const num =
  (ok: (n: number) => boolean): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && ok(v) ? v : NO;
const bool: Check = (v) => (typeof v === 'boolean' ? v : NO);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? v : NO;
const either =
  (...checks: Check[]): Check =>
  (v) => {
    for (const c of checks) {
      const r = c(v);
      if (r !== NO) return r;
    }
    return NO;
  };
const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return NO;
    const out: unknown[] = [];
    for (const x of v) {
      const r = item(x);
      if (r === NO) return NO;
      out.push(r);
    }
    return out;
  };
const recordOf =
  (item: Check): Check =>
  (v) => {
    if (!isObject(v)) return NO;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const r = item(x);
      if (r === NO || k === '__proto__') return NO;
      out[k] = r;
    }
    return out;
  };
/** Known keys only, in the shape's order (as zod's `z.object` gives them); unknown keys are dropped. */
const object =
  (shape: Record<string, Check>, required: string[] = []): Check =>
  (v) => {
    if (!isObject(v) || Object.prototype.hasOwnProperty.call(v, '__proto__')) return NO;
    const out: Record<string, unknown> = {};
    for (const [k, check] of Object.entries(shape)) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) {
        if (required.includes(k)) return NO;
        continue;
      }
      const r = check(v[k]);
      if (r === NO) return NO;
      out[k] = r;
    }
    return out;
  };

function isHttpsUrl(u: string): boolean {
  try {
    return new URL(u).protocol === 'https:';
  } catch {
    return false;
  }
}

const strings = arrayOf(str());
const nonEmptyStrings = arrayOf(str(1));
const millis = num((n) => n > 0);

const oauth = object({
  clientId: str(1),
  callbackPort: num((n) => Number.isInteger(n) && n >= 1 && n <= 65535),
  authServerMetadataUrl: str(0, isHttpsUrl),
  scopes: strings,
  grantType: oneOf('authorization_code', 'client_credentials', 'jwt-bearer'),
  tokenEndpointAuthMethod: oneOf('client_secret_basic', 'client_secret_post', 'private_key_jwt'),
  signingAlgorithm: str(1),
  issuer: str(0, (u) => URL.canParse(u)),
  clientMetadataUrl: str(0, (u) => isHttpsUrl(u) && new URL(u).pathname !== '/'),
});

const dev = object({
  watch: either(str(1), nonEmptyStrings),
  debug: object({ type: oneOf('node', 'python') }, ['type']),
});

const sandbox = object({
  filesystem: object({ allowWrite: nonEmptyStrings, denyWrite: nonEmptyStrings, denyRead: nonEmptyStrings }),
  network: object({ allowedDomains: nonEmptyStrings, deniedDomains: nonEmptyStrings }),
});

const entry = object({
  type: str(),
  command: str(),
  args: strings,
  env: recordOf(
    either(
      str(),
      num(() => true),
      bool,
    ),
  ),
  cwd: str(),
  envFile: str(),
  url: str(),
  headers: recordOf(str()),
  oauth,
  timeout: millis,
  toolTimeout: millis,
  disabled: bool,
  dev,
  headersHelper: str(1),
  registry: object({ id: str(1), version: str() }, ['id']),
  sandboxEnabled: bool,
  sandbox,
});

/** The entry as `serverEntrySchema.parse` would return it, or `undefined`: ask zod. */
export function plainEntry(raw: unknown): ServerEntryInput | undefined {
  const r = entry(raw);
  return r === NO ? undefined : (r as ServerEntryInput);
}
