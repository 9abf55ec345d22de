/**
 * Gateway profiles: named subsets of servers and tools (one project's servers, read-only tools
 * only), each its own agent endpoint (`/mcp/<profile>` over HTTP, `mcp-host serve --profile NAME`).
 * A profile only narrows what the gateway already exposes: servers the managed policy denies are
 * never admitted, so never connected, and no profile can name its way to them; the exclude list
 * and per-tool switches apply first too.
 */
import { z } from 'zod';
import type { HostTool } from '../host-api.js';
import type { ExposureFilter } from './catalog.js';
import type { ToolSearchMode } from './tool-search.js';

export interface GatewayProfile {
  /** Servers the profile offers; every exposed server when omitted. */
  servers?: string[];
  /** Tools the profile offers, as `server__tool` patterns where `*` matches any run of characters; every tool when omitted. */
  tools?: string[];
  /** Only tools whose server marks them read-only (`readOnlyHint: true`); prompts and resources stay. */
  readOnly?: boolean;
  /** Tool search mode for this profile's agents (see tool-search.ts); the gateway's setting otherwise. */
  toolSearch?: ToolSearchMode;
  /**
   * Who may use it on a team gateway (`serve --http`, service/caller-view.ts): token subjects, and
   * groups from the token's group claim. Anyone signed in when both are omitted; on loopback, where
   * there is one person, they are not consulted.
   */
  users?: string[];
  groups?: string[];
}

/** Profile names appear in URLs and on command lines. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const profileSchema = z
  .object({
    servers: z.array(z.string()).optional(),
    tools: z.array(z.string()).optional(),
    readOnly: z.boolean().optional(),
    toolSearch: z.enum(['auto', 'on', 'off']).optional(),
    users: z.array(z.string()).optional(),
    groups: z.array(z.string()).optional(),
  })
  .strict();

/**
 * Profiles from a settings value (`mcpHost.gateway.profiles`); a bad entry is reported and
 * left out, every other profile still loads.
 */
export function parseProfiles(raw: unknown): { profiles: Record<string, GatewayProfile>; problems: string[] } {
  const profiles: Record<string, GatewayProfile> = {};
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { profiles, problems };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { profiles, problems: ['mcpHost.gateway.profiles: expected an object of profile name → profile'] };
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!PROFILE_NAME.test(name)) {
      problems.push(`mcpHost.gateway.profiles: "${name}" is not a valid profile name (letters, digits, - and _)`);
      continue;
    }
    const parsed = profileSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(
        `mcpHost.gateway.profiles.${name}${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
      );
      continue;
    }
    profiles[name] = parsed.data;
  }
  return { profiles, problems };
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** The gateway's filter narrowed to a profile. */
export function profileFilter(base: ExposureFilter, profile: GatewayProfile): ExposureFilter {
  const servers = profile.servers ? new Set(profile.servers) : undefined;
  const tools = profile.tools?.map(globToRegExp);
  return {
    isServerExposed: (server) => (base.isServerExposed?.(server) ?? true) && (!servers || servers.has(server)),
    isToolEnabled: (server, tool) =>
      (base.isToolEnabled?.(server, tool) ?? true) && (!tools || tools.some((re) => re.test(`${server}__${tool}`))),
    acceptsTool: (tool: HostTool) =>
      (base.acceptsTool?.(tool) ?? true) && (!profile.readOnly || tool.annotations.readOnlyHint === true),
  };
}
