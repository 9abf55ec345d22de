/**
 * The team gateway's own settings (`mcp-host serve --http`), from the `"gateway"` object of the
 * operator's `--config` file(s), beside their `mcpServers`: who signs people in, what the gateway
 * is called as a resource, the profiles and who may use each, the audit file, the drain deadline,
 * the Redis several processes share, the rate limit per person, where OpenTelemetry goes.
 * Only files the operator names are read for these; a folder's files never are.
 */
import * as z from 'zod/v4';
import { parseProfiles, type GatewayProfile } from '../profiles.js';

export interface ServiceAuth {
  /** The authorization server's issuer (`iss` of its tokens); named in the protected resource metadata. */
  issuer: string;
  /** Where its signing keys are; default: `jwks_uri` from its metadata (RFC 8414 / OpenID discovery). */
  jwksUri?: string;
  /**
   * This gateway as a resource (RFC 8707 / RFC 9728): tokens must name it as their audience. Default:
   * the listening URL's `/mcp`; behind a balancer or a proxy, the URL agents use.
   */
  resource?: string;
  /** Scopes every token must carry (`scope` or `scp`); a token without them gets 403. Default none. */
  requiredScopes: string[];
  /** The claim that lists a person's groups. Default `groups`. */
  groupsClaim: string;
  /** Clock skew allowed on `exp`/`nbf`, seconds. Default 30. */
  clockToleranceS: number;
}

export interface ServiceConfig {
  auth?: ServiceAuth;
  profiles: Record<string, GatewayProfile>;
  /** JSONL file every call is recorded in (audit.ts); none when omitted. */
  auditLog?: string;
  /** How long open calls may take to finish after SIGTERM, ms. Default 30 s. */
  drainMs: number;
  /** OTLP/HTTP export of traces and metrics (docs/team-gateway.md, "Observing it"); the OTEL_* environment otherwise. */
  telemetry?: { otlpEndpoint?: string; serviceName?: string };
  /**
   * How long a drain keeps answering 503 at least, ms: the time a balancer's health check needs to
   * see `/readyz` turn 503 and send nothing more. Default 2 s.
   */
  drainGraceMs: number;
  /** Several processes as one (core/cluster/): where they share state. None: one process, in memory. */
  redis?: ServiceRedis;
  /** Calls per person (token `sub`), shared through `redis` when there is one. None: no limit. */
  rateLimit?: ServiceRateLimit;
}

export interface ServiceRedis {
  /** `redis://[user:password@]host:port/db` or `rediss://…`; its password is a secret (never logged). */
  url: string;
  /** Before every key and channel, so several gateways (or other programs) can share one Redis. Default `mcp-host:`. */
  keyPrefix: string;
  /** How long a cut result stays readable, seconds. Default 3600. */
  resultTtlS: number;
  /** How long one Redis command may take before the call it serves is told so, ms. Default 2000. */
  commandTimeoutMs: number;
}

export interface ServiceRateLimit {
  /** Sustained calls a minute per person. */
  callsPerMinute: number;
  /** Calls a person may make at once before the rate applies. Default: `callsPerMinute`. */
  burst: number;
}

const authSchema = z
  .object({
    issuer: z.url(),
    jwksUri: z.url().optional(),
    resource: z.url().optional(),
    requiredScopes: z.array(z.string()).optional(),
    groupsClaim: z.string().min(1).optional(),
    clockToleranceSeconds: z.number().int().min(0).max(600).optional(),
  })
  .strict();

const gatewaySchema = z
  .object({
    auth: authSchema.optional(),
    profiles: z.unknown().optional(),
    auditLog: z.string().min(1).optional(),
    drainSeconds: z.number().min(0).max(3600).optional(),
    // Checked by upstream-auth.ts (parseUpstreamAuth), which needs the environment for its secrets.
    upstreamAuth: z.unknown().optional(),
    telemetry: z
      .object({
        otlpEndpoint: z.url({ protocol: /^https?$/ }).optional(),
        serviceName: z.string().min(1).max(200).optional(),
      })
      .strict()
      .optional(),
    drainGraceSeconds: z.number().min(0).max(600).optional(),
    redis: z
      .object({
        url: z.string().regex(/^rediss?:\/\/[^\s]+$/, 'a redis:// or rediss:// URL'),
        keyPrefix: z.string().max(100).optional(),
        resultTtlSeconds: z
          .number()
          .int()
          .min(1)
          .max(7 * 86_400)
          .optional(),
        commandTimeoutMs: z.number().int().min(50).max(60_000).optional(),
      })
      .strict()
      .optional(),
    rateLimit: z
      .object({
        callsPerMinute: z.number().positive().max(1_000_000),
        burst: z.number().int().min(1).max(1_000_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * The `"gateway"` objects of the config files, later files winning per key (profiles merged by
 * name); `problems` name the file and the key. A bad `auth` leaves `auth` unset: the caller refuses to start.
 */
export function parseServiceConfig(docs: { file: string; value: unknown }[]): {
  config: ServiceConfig;
  problems: string[];
} {
  const config: ServiceConfig = { profiles: {}, drainMs: 30_000, drainGraceMs: 2000 };
  const problems: string[] = [];
  for (const { file, value } of docs) {
    if (value === undefined) continue;
    const parsed = gatewaySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`${file}: gateway${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message}`);
      continue;
    }
    const g = parsed.data;
    if (g.auth) {
      const a = g.auth;
      config.auth = {
        issuer: a.issuer,
        ...(a.jwksUri !== undefined ? { jwksUri: a.jwksUri } : {}),
        ...(a.resource !== undefined ? { resource: a.resource } : {}),
        requiredScopes: a.requiredScopes ?? [],
        groupsClaim: a.groupsClaim ?? 'groups',
        clockToleranceS: a.clockToleranceSeconds ?? 30,
      };
    }
    if (g.profiles !== undefined) {
      const p = parseProfiles(g.profiles);
      problems.push(
        ...p.problems.map((m) => `${file}: ${m.replace(/^mcpHost\.gateway\.profiles/, 'gateway.profiles')}`),
      );
      Object.assign(config.profiles, p.profiles);
    }
    if (g.auditLog !== undefined) config.auditLog = g.auditLog;
    if (g.drainSeconds !== undefined) config.drainMs = g.drainSeconds * 1000;
    if (g.telemetry !== undefined) config.telemetry = { ...config.telemetry, ...g.telemetry };
    if (g.drainGraceSeconds !== undefined) config.drainGraceMs = g.drainGraceSeconds * 1000;
    if (g.redis)
      config.redis = {
        url: g.redis.url,
        keyPrefix: g.redis.keyPrefix ?? 'mcp-host:',
        resultTtlS: g.redis.resultTtlSeconds ?? 3600,
        commandTimeoutMs: g.redis.commandTimeoutMs ?? 2000,
      };
    if (g.rateLimit)
      config.rateLimit = {
        callsPerMinute: g.rateLimit.callsPerMinute,
        burst: g.rateLimit.burst ?? Math.max(1, Math.ceil(g.rateLimit.callsPerMinute)),
      };
  }
  return { config, problems };
}
