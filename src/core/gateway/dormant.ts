/**
 * Tools of servers that lost their connection and come back on their next use (a stdio server
 * that exited, a remote one reconnecting). The catalog lists connected servers only, so without
 * this an agent's next call was refused as an unknown tool and never reached the host: on a
 * gateway with no other client the server stayed down for good (found by bench/chaos.ts).
 * A dormant tool is offered only on the terms a live one is: the exposure rules are asked again
 * at the call (a tool switched off, or a server excluded, while its server is down stays off).
 */
import type { ServerSnapshot } from '../host-api.js';
import { toolExposed, type ExposedTool, type ExposureFilter } from './catalog.js';

/** States a call can bring back from: anything but stopped, disabled or waiting for sign-in. */
function revivable(s: ServerSnapshot | undefined): boolean {
  return s !== undefined && (s.state.kind === 'failed' || s.state.kind === 'pending');
}

export class DormantTools {
  private readonly byName = new Map<string, ExposedTool>();

  /** After each catalog rebuild: tools that left with their server's connection stay callable. */
  update(previous: readonly ExposedTool[], next: readonly ExposedTool[], servers: readonly ServerSnapshot[]): void {
    const state = new Map(servers.map((s) => [s.name, s]));
    const listed = new Set(next.map((t) => t.name));
    for (const t of previous) if (!listed.has(t.name)) this.byName.set(t.name, t);
    for (const [name, t] of this.byName)
      if (listed.has(name) || !revivable(state.get(t.tool.server))) this.byName.delete(name);
  }

  /** The dormant tool called `name`, if `filter` exposes it now. */
  find(name: string, filter: ExposureFilter): ExposedTool | undefined {
    const t = this.byName.get(name);
    return t && toolExposed(filter, t.tool) ? t : undefined;
  }
}
