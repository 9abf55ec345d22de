/**
 * Whether a call an app makes needs the person's confirmation. An app that polls or streams (the
 * official PDF viewer long-polls `poll_pdf_commands` every 30 s and reads a file in 512 KB chunks
 * through `read_pdf_bytes`, neither marked read-only) is unusable when every call asks, so the
 * person may trust an app until its panel closes. Trust covers only the app's own tools (visible to
 * the app and not to the model: the model cannot reach them, so the app is their only caller) that
 * do not declare themselves destructive; a tool with `destructiveHint: true` asks every time, and a
 * tool the model can also call asks as it would from the palette.
 */
import type { HostTool } from '../host-data.js';
import { visibleToApp, visibleToModel } from './meta.js';

/**
 * Per the MCP spec a tool is destructive unless it says otherwise: `destructiveHint` defaults to
 * true and only matters when `readOnlyHint` is not true.
 */
export function isDestructive(t: Pick<HostTool, 'annotations'>): boolean {
  if (t.annotations.readOnlyHint === true) return false;
  return t.annotations.destructiveHint !== false;
}

/** `run`: no question; `ask`: confirm, and `mayTrust` says whether "trust this app" may be offered. */
export type AppCallConsent = { kind: 'run' } | { kind: 'ask'; mayTrust: boolean };

/** A tool only its app can call: the model never sees it. */
export function appOnly(t: Pick<HostTool, 'ui'>): boolean {
  return visibleToApp(t) && !visibleToModel(t);
}

export function appCallConsent(t: Pick<HostTool, 'annotations' | 'ui'>, session: AppSessionTrust): AppCallConsent {
  if (!isDestructive(t)) return { kind: 'run' };
  const trustable = appOnly(t) && t.annotations.destructiveHint !== true;
  if (trustable && session.trusted) return { kind: 'run' };
  return { kind: 'ask', mayTrust: trustable };
}

/** One app panel's trust: given by the person, gone with the panel (never stored). */
export class AppSessionTrust {
  private given = false;

  get trusted(): boolean {
    return this.given;
  }

  trust(): void {
    this.given = true;
  }
}
