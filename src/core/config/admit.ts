/**
 * Admission: the one place that decides whether a loaded server runs. The pipeline reads in one
 * direction — `readConfig` (read, validate, merge) → `admit` (this file, pure) → `resolveAdmitted`
 * (env files and `${input:}` values, only for servers that run) → `host.setDefinitions`. The tree,
 * the status bar, the notifications and the CLI read `def.admission`; nobody re-derives it.
 */
import { pointsAtOwnGateway } from './self-loop.js';
import { APPROVAL_SCOPES, approvalHashOf, type ApprovalLookup } from './approvals.js';
import { evaluatePolicy, type Policy } from './policy.js';
import { scopeAdmission } from './policy-scope.js';
import { planSandbox } from './sandbox-plan.js';
import { sandboxRequired } from './sandbox-policy.js';
import type { Admission, HeldReason, ServerConfig, ServerDefinition } from './types.js';

export type { Admission, HeldReason } from './types.js';

export interface AdmitContext {
  /** false: the workspace is untrusted (VS Code Workspace Trust); its own servers never run. */
  trusted: boolean;
  /** Remembered decisions; without it no approval is required (`mcp-host --allow-project-servers`). */
  approvals?: ApprovalLookup;
  /** Names on the per-workspace disabled list. */
  userDisabled?: ReadonlySet<string>;
  /** With `mcpHost.autoStart` off: servers the user has not started yet. */
  manualStart?: ReadonlySet<string>;
  /** Allow/deny rules of the managed file. */
  policy?: Policy;
  /** URLs of this host's own gateways: an entry pointing at one (written for agents) never runs here. */
  ownGateways?: readonly string[];
  /** Open workspace folders: what a sandboxed user-scope server may write (workspace servers: their own folder). */
  folders?: readonly string[];
  /** `${userHome}`: where the credential stores a sandbox hides are. */
  home?: string;
  /** MCP Host's own state folders, hidden from sandboxed servers. */
  privateDirs?: readonly string[];
  /** True for a server the editor runs itself and the user chose to leave to it (mcpHost.sharedServers). */
  leftToEditor?: (def: ServerDefinition) => boolean;
  /** True for a server the editor also reads itself (left to it or not): a running one is marked `sharedWithEditor`. */
  readByEditor?: (def: ServerDefinition) => boolean;
}

const RUN: Admission = { run: true };

function held(reason: HeldReason, message: string, ask?: boolean): Admission {
  return ask ? { run: false, reason, message, ask } : { run: false, reason, message };
}

/** Policy's verdict on one config; also used after `${input:}` values change a server's identity. */
export function policyAdmission(name: string, config: ServerConfig, policy: Policy | undefined): Admission | undefined {
  const v = evaluatePolicy(policy, name, config);
  if (v.allowed) return undefined;
  const file = v.file ?? policy!.file;
  return {
    ...held(
      'policy',
      `Server "${name}" is blocked by the policy in ${file}: ${v.reason}. Ask your administrator to allow it.`,
    ),
    rule: { file, jsonPath: v.jsonPath ?? [] },
  } as Admission;
}

/** Why one server may not run, or `{ run: true }`. Order: the strongest, least negotiable reason first. */
export function admissionOf(def: ServerDefinition, ctx: AdmitContext): Admission {
  if (def.config.disabled) return held('config', 'Disabled in its config ("disabled": true).');
  if (pointsAtOwnGateway(def, ctx.ownGateways ?? [])) {
    return held(
      'config',
      'This entry points at MCP Host’s own gateway (it is there for agents); MCP Host does not connect to itself.',
    );
  }
  const denied = policyAdmission(def.name, def.config, ctx.policy) ?? scopeAdmission(def, ctx.policy);
  if (denied) return denied;
  if (ctx.userDisabled?.has(def.name))
    return held('user-disabled', 'Disabled in this workspace. Enable it to start it.');
  if (APPROVAL_SCOPES.includes(def.source.scope)) {
    if (!ctx.trusted) {
      return held(
        'untrusted',
        'This workspace is not trusted, so servers defined in its files (.mcp.json, .vscode/mcp.json) do not start. Trust the workspace to run them.',
      );
    }
    if (ctx.leftToEditor?.(def)) {
      return held(
        'editor',
        'You left this server to VS Code in this workspace (mcpHost.sharedServers or mcpHost.sharedServersPerServer), so VS Code runs it itself and MCP Host does not start a second copy. Use Take Back from VS Code to run it in MCP Host.',
      );
    }
    if (ctx.approvals) {
      switch (ctx.approvals.status(def.name, approvalHashOf(def))) {
        case 'approved':
          break;
        case 'denied':
          return held('not-approved', 'You chose not to run this workspace server. Start it to review and approve it.');
        case 'changed':
          return held(
            'not-approved',
            'This workspace server changed since you approved it; approve it again to start it.',
            true,
          );
        case 'unknown':
          return held('not-approved', 'This server is defined by the workspace; it starts after you approve it.', true);
      }
    }
  }
  if (ctx.manualStart?.has(def.name))
    return held('manual', 'mcpHost.autoStart is off: start it from the tree or the palette.');
  const admitted = sandboxAdmission(def, ctx);
  // Marked so the tree offers "Leave to VS Code" on exactly these rows.
  return admitted.run && ctx.readByEditor?.(def) ? { ...admitted, sharedWithEditor: true } : admitted;
}

/**
 * Local servers run sandboxed when their config asks or the managed policy requires it; the plan
 * rides on the admission, so the transport (and nothing else) applies exactly what was decided.
 */
function sandboxAdmission(def: ServerDefinition, ctx: AdmitContext): Admission {
  const c = def.config;
  if (c.type !== 'stdio') return RUN;
  const required = sandboxRequired(ctx.policy?.sandbox, {
    name: def.name,
    line: [c.command, ...c.args],
    scope: def.source.scope,
  });
  if (!required && c.sandboxEnabled !== true) return RUN;
  const folders = def.source.folder !== undefined ? [def.source.folder] : [...(ctx.folders ?? [])];
  const { plan } = planSandbox(
    c,
    { folders, home: ctx.home, privateDirs: ctx.privateDirs, policy: ctx.policy?.sandbox },
    c.sandboxEnabled === true ? 'config' : 'policy',
  );
  return { run: true, sandbox: plan };
}

/** Every definition with its admission; the input is not changed. */
export function admit(defs: readonly ServerDefinition[], ctx: AdmitContext): ServerDefinition[] {
  return defs.map((d) => ({ ...d, admission: admissionOf(d, ctx) }));
}

/** Whether the host may run it. A definition never admitted (tests, the exported API) runs unless its config says disabled. */
export function runs(def: ServerDefinition): boolean {
  return def.admission ? def.admission.run : def.config.disabled !== true;
}

/** The reason a server is held back, or undefined when it runs. */
export function heldReason(def: ServerDefinition | undefined): HeldReason | undefined {
  return def?.admission && !def.admission.run ? def.admission.reason : undefined;
}

/** Servers never decided on, or changed since: what the approval prompt asks about. */
export function awaitingApproval(defs: readonly ServerDefinition[]): ServerDefinition[] {
  return defs.filter(
    (d) => d.admission && !d.admission.run && d.admission.reason === 'not-approved' && d.admission.ask === true,
  );
}
