/**
 * Editor-side gating between the loaded config and the host, kept free of `vscode` so it is
 * unit-tested on plain Node: which servers wait for workspace trust or approval, which the user
 * disabled for this workspace, and which last good definitions survive a broken file.
 */
import type { ConfigProblem, LoadedConfig, ServerDefinition } from '../../core/config/types.js';
import type { GateReason } from '../tree/model.js';
import { approvalHashOf, gateReason, type ApprovalLookup } from '../../core/trust.js';

export interface GateInput {
  defs: ServerDefinition[];
  /** `vscode.workspace.isTrusted`. */
  trusted: boolean;
  /** Remembered decisions (core trust.ts, name + approval hash). */
  approvals: ApprovalLookup;
  /** Names on the per-workspace disabled list. */
  userDisabled: ReadonlySet<string>;
  /** With `mcpHost.autoStart` off: servers the user has not started yet. */
  manual?: ReadonlySet<string>;
}

export interface GateResult {
  /** What the host gets: gated servers are passed disabled so they still show and can be listed. */
  forHost: ServerDefinition[];
  gates: Map<string, GateReason>;
  /** Definitions never decided on or changed since: what the approval prompt asks about. */
  awaitingApproval: ServerDefinition[];
}

/**
 * A held-back server goes to the host as `disabled` with a hash of its own: when the gate lifts,
 * the real hash differs, so `setDefinitions` starts it without a separate call.
 */
export function held(def: ServerDefinition, reason: GateReason, message: string): ServerDefinition {
  return {
    ...def,
    config: { ...def.config, disabled: true },
    hash: `${def.hash}#${reason}`,
    disabledBy: reason === 'user-disabled' || reason === 'manual' ? def.disabledBy : { reason, message },
  };
}

/**
 * The loader (given `trusted` and the approvals) already hands back held servers as disabled with
 * `disabledBy`; this maps them to the tree's gates, adds the per-workspace disabled list, and holds
 * back anything a loader run without approvals let through.
 */
export function applyGates(input: GateInput): GateResult {
  const gates = new Map<string, GateReason>();
  const awaitingApproval: ServerDefinition[] = [];
  const forHost = input.defs.map((def) => {
    if (input.userDisabled.has(def.name)) {
      gates.set(def.name, 'user-disabled');
      return held(def, 'user-disabled', 'disabled in this workspace');
    }
    if (input.manual?.has(def.name) && !def.config.disabled) {
      gates.set(def.name, 'manual');
      return held(def, 'manual', 'autoStart is off');
    }
    const given = def.disabledBy?.reason === 'untrusted' || def.disabledBy?.reason === 'not-approved' ? def.disabledBy : undefined;
    const why = given ?? (def.config.disabled ? undefined : gateReason(def.source.scope, def.name, approvalHashOf(def), { trusted: input.trusted, approvals: input.approvals }));
    if (!why || why.reason === 'config') return def;
    gates.set(def.name, why.reason);
    const status = input.approvals.status(def.name, approvalHashOf(def));
    if (why.reason === 'not-approved' && (status === 'unknown' || status === 'changed')) awaitingApproval.push(def);
    return given ? def : held(def, why.reason, why.message);
  });
  return { forHost, gates, awaitingApproval };
}

/** A problem that makes the whole file unreadable (as opposed to one bad entry). */
export function isFileLevel(p: ConfigProblem): boolean {
  return p.severity === 'error' && (p.code === 'invalid-json' || p.jsonPath.length === 0);
}

/**
 * When a file turns unreadable, or one of its entries turns invalid, the servers it defined
 * last time keep running (the tree shows the problem next to them) instead of being stopped by a
 * half-typed edit.
 */
export function keepLastGood(previous: ServerDefinition[], loaded: LoadedConfig): ServerDefinition[] {
  const brokenFiles = new Set(loaded.problems.filter(isFileLevel).map((p) => p.file));
  const brokenEntries = new Set(
    loaded.problems.filter((p) => p.severity === 'error' && p.server !== undefined && p.code !== 'policy-denied').map((p) => `${p.file}\u0000${p.server}`),
  );
  const present = new Set(loaded.servers.map((d) => d.name));
  const kept = previous.filter(
    (d) => !present.has(d.name) && d.source.scope !== 'dynamic' && (brokenFiles.has(d.source.file) || brokenEntries.has(`${d.source.file}\u0000${d.name}`)),
  );
  return kept.length ? [...loaded.servers, ...kept] : loaded.servers;
}
