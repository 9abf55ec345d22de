/**
 * Tool names that survive what agents do to them. Codex (its MCP client, rmcp) keeps only
 * `[A-Za-z0-9_]` in a tool name and turns every other character into `_`; Copilot CLI puts
 * `<server key>-` in front. Two gateway names that differ only in such characters
 * (`s__get-sum` and `s__get_sum`, or servers `a-b` and `a_b`) would reach Codex as one name, and
 * one of the two tools could not be called. So names are compared as Codex folds them, and a
 * later name that folds onto an earlier one gets the hashed form (naming.ts), which differs
 * in the alphabet every agent keeps.
 */
import { gatewayName } from '../naming.js';

/** A name as Codex rewrites it: every character outside `[A-Za-z0-9_]` as `_`. */
export function agentFold(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The tool names of one catalogue, handed out in order: the first of a colliding pair keeps its plain name. */
export class AgentToolNames {
  private readonly folded = new Set<string>();

  constructor(taken: Iterable<string> = []) {
    for (const n of taken) this.folded.add(agentFold(n));
  }

  /** The gateway name of `name` of `server`, distinct from every name handed out, also once folded. */
  take(server: string, name: string): string {
    const out = gatewayName(server, name, (n) => this.folded.has(agentFold(n)));
    this.folded.add(agentFold(out));
    return out;
  }
}
