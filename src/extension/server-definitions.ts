import type * as vscode from 'vscode';
import type { ServerDefinition } from '../core/config/index.js';
import type { ServerChangeEvent } from '../core/host-api.js';
import type { Event } from '../core/events.js';

/**
 * The definition each server of the host runs with, by name, as the host's change events report
 * it. The host fires for a server (new, changed or held) before it starts its process, so a lookup
 * made for one of its log lines or sampling requests already sees the definition it runs with.
 * Lets the parts the host is built from (server logs, sampling consent) look definitions up without
 * holding the host itself.
 */
export class ServerDefinitions {
  private readonly byName = new Map<string, ServerDefinition>();

  get(name: string): ServerDefinition | undefined {
    return this.byName.get(name);
  }

  follow(changes: Event<ServerChangeEvent>): vscode.Disposable {
    return changes((e) => {
      if (e.snapshot) this.byName.set(e.name, e.snapshot.definition);
      else this.byName.delete(e.name);
    });
  }
}
