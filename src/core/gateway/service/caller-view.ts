/**
 * What a signed-in person is served on the team gateway: a profile that admits them. A profile
 * with `users` or `groups` admits only those; one with neither admits anyone signed in (what a
 * profile meant before it could name people). `/mcp/<profile>` is that profile or 403; `/mcp` is
 * the first profile, in the config's order, that names the person (by `sub` or a group), else the
 * first that admits anyone; with no profiles at all, the whole gateway; else 403. The managed
 * policy still decides which servers run at all (config/admit.ts): no profile widens it.
 */
import type { GatewayProfile } from '../profiles.js';
import { agentViewOf, type AgentView } from '../views.js';
import type { Caller } from './tokens.js';

export function namesCaller(profile: GatewayProfile, caller: Caller): boolean {
  return (
    (profile.users?.includes(caller.sub) ?? false) || (profile.groups?.some((g) => caller.groups.includes(g)) ?? false)
  );
}

export function admits(profile: GatewayProfile, caller: Caller): boolean {
  return (profile.users === undefined && profile.groups === undefined) || namesCaller(profile, caller);
}

export type CallerView = { ok: true; view: AgentView } | { ok: false; status: 403 | 404; reason: string };

export function callerView(
  url: string,
  headers: Record<string, string | string[] | undefined>,
  profiles: Readonly<Record<string, GatewayProfile>>,
  caller: Caller,
): CallerView {
  const asked = agentViewOf(url, headers);
  if (typeof asked === 'string') return { ok: false, status: 404, reason: asked };
  if (asked.profile !== undefined) {
    const p = Object.hasOwn(profiles, asked.profile) ? profiles[asked.profile] : undefined;
    if (!p) return { ok: false, status: 404, reason: `no gateway profile "${asked.profile}"` };
    if (!admits(p, caller)) return { ok: false, status: 403, reason: `profile "${asked.profile}" is not yours` };
    return { ok: true, view: asked };
  }
  const entries = Object.entries(profiles);
  if (entries.length === 0) return { ok: true, view: asked };
  const mine = entries.find(([, p]) => namesCaller(p, caller)) ?? entries.find(([, p]) => admits(p, caller));
  if (!mine) return { ok: false, status: 403, reason: 'no gateway profile admits you' };
  return { ok: true, view: { ...asked, profile: mine[0] } };
}
