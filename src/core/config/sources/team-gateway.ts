/**
 * The team gateway every developer's MCP Host connects to (`mcp-host serve --http` run by the
 * company, docs/team-gateway-clients.md): `"teamGateway": {"url", "name"?, "oauth"?}` in a managed
 * file, or the user's `mcpHost.teamGateway` setting for a team without managed policy. A managed one
 * wins and cannot be replaced by the setting (the first managed file that names one, the system file
 * first). It becomes one remote server of the scope it was written in, so everything a server has
 * applies to it unchanged: the policy's rules, the OAuth sign-in its 401 asks for (tokens in the
 * front end's own store), the tree, the palette, the CLI, the editor's own gateway for agents.
 */
import type { ConfigProblem, Scope, TeamGatewayMark } from '../types.js';
import type { RawEntry, SourceResult } from './entry.js';

export const TEAM_GATEWAY_KEY = 'teamGateway';
export const TEAM_GATEWAY_SETTING_FILE = 'settings:mcpHost.teamGateway';
export const DEFAULT_TEAM_GATEWAY_NAME = 'Team gateway';

/**
 * Asks the gateway for every tool in full (gateway/views.ts `TOOLS_HEADER`): a person browsing the
 * tree wants the tools, not the search tools an agent with a small context gets.
 */
export const FULL_LISTING_HEADER = { 'X-MCP-Host-Tools': 'all' } as const;

/** `Acme Tools` → `acme-tools`: the server's name in the CLI, tool names and the token store. */
export function teamGatewayServerName(displayName: string): string {
  const slug = displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'team-gateway';
}

function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function problem(message: string, file: string, jsonPath: (string | number)[], scope: Scope): ConfigProblem {
  return { severity: 'error', code: 'schema', message, file, jsonPath, scope };
}

export interface TeamGatewayContext {
  file: string;
  scope: Scope;
  /** Where the object sits in the file: `["teamGateway"]` in a managed file, `[]` for the setting. */
  jsonPath: (string | number)[];
  baseDir: string;
  text?: string;
}

/**
 * The server entry for a `teamGateway` value; undefined (with a problem) when it is not one. The
 * `oauth` object is the server entry's own (clientId, scopes, authServerMetadataUrl, callbackPort,
 * grantType) and is checked by the entry schema like any other.
 */
export function teamGatewayEntry(
  value: unknown,
  ctx: TeamGatewayContext,
  problems: ConfigProblem[],
): (RawEntry & { teamGateway: TeamGatewayMark }) | undefined {
  if (value === undefined || value === null) return undefined;
  const where = ctx.file.startsWith('settings:') ? 'mcpHost.teamGateway' : `"${TEAM_GATEWAY_KEY}"`;
  const o = value as Record<string, unknown>;
  const url = typeof o.url === 'string' && URL.canParse(o.url) ? new URL(o.url) : undefined;
  if (typeof value !== 'object' || Array.isArray(value) || !url) {
    problems.push(
      problem(
        `${where} needs "url": the team gateway's address (https://…/mcp). It is ignored.`,
        ctx.file,
        ctx.jsonPath,
        ctx.scope,
      ),
    );
    return undefined;
  }
  // Its tokens are bearer tokens: over plain HTTP anyone on the way could replay them.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    problems.push(
      problem(
        `${where}.url must be an https:// URL (plain http only on loopback); it is ignored.`,
        ctx.file,
        [...ctx.jsonPath, 'url'],
        ctx.scope,
      ),
    );
    return undefined;
  }
  if (o.name !== undefined && (typeof o.name !== 'string' || o.name.trim() === '')) {
    problems.push(
      problem(
        `${where}.name must be a non-empty string; the default is used.`,
        ctx.file,
        [...ctx.jsonPath, 'name'],
        ctx.scope,
      ),
    );
  }
  const displayName = typeof o.name === 'string' && o.name.trim() !== '' ? o.name.trim() : DEFAULT_TEAM_GATEWAY_NAME;
  return {
    name: teamGatewayServerName(displayName),
    value: {
      type: 'http',
      url: url.href,
      headers: { ...FULL_LISTING_HEADER },
      ...(o.oauth !== undefined ? { oauth: o.oauth } : {}),
    },
    source: { scope: ctx.scope, file: ctx.file, jsonPath: ctx.jsonPath },
    baseDir: ctx.baseDir,
    ...(ctx.text !== undefined ? { text: ctx.text } : {}),
    teamGateway: { displayName },
  };
}

/**
 * The team gateway's entry: the managed one (`team`: the first managed file's, null when it is
 * broken), else the user setting's, which a managed one replaces with a warning.
 */
export function teamGatewayResult(team: RawEntry | null | undefined, setting: unknown, home: string): SourceResult {
  const problems: ConfigProblem[] = [];
  const named = setting !== undefined && setting !== null;
  if (team !== undefined) {
    if (named)
      problems.push({
        severity: 'warning',
        code: 'policy',
        message: 'mcpHost.teamGateway is ignored: the managed policy names the team gateway.',
        file: TEAM_GATEWAY_SETTING_FILE,
        jsonPath: [],
        scope: 'user',
      });
    return { entries: team ? [team] : [], problems, files: [] };
  }
  const ctx = { file: TEAM_GATEWAY_SETTING_FILE, scope: 'user' as const, jsonPath: [], baseDir: home };
  const entry = teamGatewayEntry(setting, ctx, problems);
  return { entries: entry ? [entry] : [], problems, files: [] };
}
