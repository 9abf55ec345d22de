/**
 * The editor side of the sandbox (src/core/sandbox): the shield and the allowed-rules summary on a
 * sandboxed server's row, the count of what it blocked, a notice on the first refusal of each
 * kind, and "Allow in Sandbox", which writes the chosen domain or folder into the server's entry.
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import type { ServerSnapshot } from '../core/host-api.js';
import { allowChoice, blockLine, type SandboxBlock, sharedSandboxRuntime } from '../core/sandbox/index.js';
import { describePlan } from '../core/config/index.js';
import type { ConfigController } from './config/controller.js';
import { setEntrySandbox } from './config/file-edits.js';
import type { ItemView } from './tree/model.js';

export function sandboxPlanOf(s: ServerSnapshot) {
  const a = s.definition.admission;
  return a?.run ? a.sandbox : undefined;
}

/** The row of a sandboxed server: a shield while it runs, its blocked count, the rules in the tooltip. */
export function withSandbox(v: ItemView, s: ServerSnapshot, blocked: number): ItemView {
  const plan = sandboxPlanOf(s);
  if (!plan) return v;
  const esc = (t: string) => t.replace(/[\\`*_[\]<>]/g, '\\$&');
  const checked = sharedSandboxRuntime().lastCheck();
  const weaker = (checked?.ok ? checked.weaker : []).map((w) => `  \n$(warning) Weaker than it should be: ${esc(w)}`);
  return {
    ...v,
    ...(s.state.kind === 'connected' ? { icon: 'shield' } : {}),
    description: [v.description, blocked ? `sandboxed, ${blocked} blocked` : 'sandboxed'].filter(Boolean).join(' · '),
    tooltip: `${v.tooltip ?? ''}\n\n${describePlan(plan).map(esc).join('  \n')}${weaker.join('')}${blocked ? `  \nBlocked so far: ${blocked} (use **Allow in Sandbox…**)` : ''}`,
  };
}

export function sandboxUi(
  controller: ConfigController,
  refresh: (server: string) => void,
): vscode.Disposable & {
  commands: { 'mcpHost.allowInSandbox': (arg: unknown) => Promise<void> };
} {
  const runtime = sharedSandboxRuntime();
  const told = new Set<string>();
  const off = runtime.onBlocked((b: SandboxBlock) => {
    refresh(b.server);
    const key = `${b.server}\u0000${b.kind}`;
    if (told.has(key) || !allowChoice(b, undefined)) return;
    told.add(key);
    void vscode.window
      .showWarningMessage(`${b.server}: ${blockLine(b).replace('[sandbox] ', '')}.`, 'Allow…')
      .then((pick) => (pick ? vscode.commands.executeCommand('mcpHost.allowInSandbox', b.server) : undefined));
  });

  const allow = async (arg: unknown): Promise<void> => {
    const name =
      typeof arg === 'string'
        ? arg
        : arg && typeof arg === 'object' && typeof (arg as { server?: unknown }).server === 'string'
          ? (arg as { server: string }).server
          : await vscode.window.showQuickPick(
              controller
                .servers()
                .filter((s) => runtime.recentBlocks(s.name).length)
                .map((s) => s.name),
              { title: 'MCP Host: Allow in Sandbox', placeHolder: 'Server' },
            );
    if (!name) return;
    const def = controller.definition(name);
    if (!def) throw new Error(`There is no server "${name}".`);
    // The label says so when a folder offered covers the workspace or the home folder (core/sandbox/allow.ts).
    const plan = def.admission?.run ? def.admission.sandbox : undefined;
    const ctx = { folders: plan?.filesystem.allowWrite ?? [], home: homedir() };
    const items = runtime
      .recentBlocks(name)
      .map((b) => ({ b, choice: allowChoice(b, undefined, ctx) }))
      .filter((x) => x.choice)
      .map((x) => ({ label: x.choice!.label, description: blockLine(x.b).replace('[sandbox] ', ''), block: x.b }));
    if (!items.length) {
      void vscode.window.showInformationMessage(`The sandbox has not blocked anything "${name}" could be allowed.`);
      return;
    }
    const pick = await vscode.window.showQuickPick(items, { title: `MCP Host: Allow in Sandbox (${name})` });
    if (!pick) return;
    // The user's own change: it restarts without asking them to approve it again.
    controller.expectSelfAdded(name);
    const file = await setEntrySandbox(def, (current) => allowChoice(pick.block, current, ctx)!.sandbox);
    void vscode.window.showInformationMessage(`${pick.label} for "${name}": written to ${file}; it restarts with it.`);
  };

  return {
    dispose: () => {
      off();
      void runtime.dispose();
    },
    commands: { 'mcpHost.allowInSandbox': allow },
  };
}
