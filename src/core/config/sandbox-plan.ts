/**
 * Turns a server's sandbox settings into the exact rules it runs under: the safe default profile
 * (read the system, write the workspace and its own temporary folder, never the credential stores,
 * no network but the listed domains and npm's registry), the file's and the entry's additions, and
 * the managed policy's caps. Pure: admission (config/admit.ts) calls it, nothing else decides.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { StdioServerConfig } from './types.js';
import type { SandboxPlan } from './sandbox-settings.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/** npm's registry is allowed by default, as VS Code does: `npx -y` servers download themselves. */
export const DEFAULT_ALLOWED_DOMAINS = ['registry.npmjs.org'];

/** Credential stores no sandboxed server may read, relative to the home folder. */
export const CREDENTIAL_STORES = [
  '.ssh',
  '.aws',
  '.azure',
  '.kube',
  '.gnupg',
  '.docker/config.json',
  '.git-credentials',
  '.config/git/credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.config/gcloud',
  '.config/gh',
  '.config/mcp-host',
  '.local/share/keyrings',
  '.password-store',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/Code/User/globalStorage',
  'Library/Keychains',
  'Library/Cookies',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/Code/User/globalStorage',
  'Library/Safari',
];

export interface PlanContext {
  /** Workspace folders the server may write (its own folder, or every open one for user servers). */
  folders: readonly string[];
  home?: string;
  /** MCP Host's own state folders (secrets, tokens: user-dir.ts `hostPrivateDirs`): hidden like the credential stores. */
  privateDirs?: readonly string[];
  policy?: SandboxPolicy;
}

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** Whether `domain` (maybe `*.x`) is within `pattern` (maybe `*.y`): what a policy cap allows. */
export function domainWithin(domain: string, pattern: string): boolean {
  const d = domain.toLowerCase();
  const p = pattern.toLowerCase();
  if (p === '*' || d === p) return true;
  if (!p.startsWith('*.')) return false;
  const suffix = p.slice(1);
  const bare = d.startsWith('*.') ? d.slice(2) : d;
  return bare.endsWith(suffix);
}

export interface PlanResult {
  plan: SandboxPlan;
  /** Rules the policy's caps removed, for the server's log. */
  dropped: string[];
}

/** The plan for one stdio server that runs sandboxed (`by` says who asked). */
export function planSandbox(config: StdioServerConfig, ctx: PlanContext, by: SandboxPlan['by']): PlanResult {
  const home = ctx.home ?? homedir();
  const abs = (p: string) => resolve(config.cwd ?? ctx.folders[0] ?? home, expandHome(p, home));
  const s = config.sandbox;
  const cap = ctx.policy;
  const dropped: string[] = [];

  let allowWrite = [...ctx.folders, ...(s?.filesystem?.allowWrite ?? []).map(abs)];
  if (cap?.allowWrite) {
    const limits = cap.allowWrite.map(abs);
    allowWrite = allowWrite.filter((p) => {
      const ok = ctx.folders.includes(p) || limits.some((l) => inside(p, l));
      if (!ok) dropped.push(`write ${p}`);
      return ok;
    });
  }
  let allowedDomains = [...DEFAULT_ALLOWED_DOMAINS, ...(s?.network?.allowedDomains ?? [])];
  if (cap?.allowedDomains) {
    const limits = cap.allowedDomains;
    allowedDomains = allowedDomains.filter((d) => {
      const ok = limits.some((l) => domainWithin(d, l));
      if (!ok) dropped.push(`network ${d}`);
      return ok;
    });
  }
  const denyRead = [
    ...CREDENTIAL_STORES.map((p) => join(home, p)),
    ...(ctx.privateDirs ?? []),
    ...(s?.filesystem?.denyRead ?? []).map(abs),
    ...(cap?.denyRead ?? []).map(abs),
  ];
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    plan: {
      filesystem: {
        allowWrite: uniq(allowWrite),
        denyWrite: uniq((s?.filesystem?.denyWrite ?? []).map(abs)),
        denyRead: uniq(denyRead),
        ...(ctx.privateDirs?.length ? { privateDirs: uniq([...ctx.privateDirs]) } : {}),
      },
      network: {
        allowedDomains: uniq(allowedDomains),
        deniedDomains: uniq([...(s?.network?.deniedDomains ?? []), ...(cap?.deniedDomains ?? [])]),
      },
      by,
    },
    dropped,
  };
}
