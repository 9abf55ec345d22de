import * as vscode from 'vscode';
import type { McpHost } from '../core/host.js';
import type { ServerDefinition } from '../core/config/index.js';
import { addServer } from './config/add-server.js';
import type { ConfigController } from './config/controller.js';
import { setDisabled } from './config/file-edits.js';
import { createProjectConfig, openConfigPicker, revealEntry, type ConfigTarget } from './config/open-config.js';
import type { ServerLogs } from './logs.js';
import type { ChannelLogger } from './ports/logger.js';
import { errorText } from '../core/errors.js';
import type { CommandId, CommandTable } from './command-table.js';
import { isRemote } from '../core/connection/index.js';

/** OAuth actions (src/extension/auth). */
export interface AuthActions {
  authenticate(def: ServerDefinition): Promise<void>;
  signOut(def: ServerDefinition): Promise<void>;
  /** Ends the 15-minute needs-auth quiet period: the user asked for this server explicitly. */
  clearNeedsAuth(def: ServerDefinition): Promise<void>;
  signInEnterprise(): Promise<boolean>;
  signOutEnterprise(servers: readonly ServerDefinition[]): Promise<ServerDefinition[]>;
}

export interface CommandDeps {
  host: McpHost;
  controller: ConfigController;
  logs: ServerLogs;
  mainLog: ChannelLogger;
  auth: AuthActions;
}

/** A tree node, `{server}`, or a plain name: every way a server command can be invoked. */
function serverArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { server?: unknown }).server === 'string')
    return (arg as { server: string }).server;
  return undefined;
}

async function pickServer(
  deps: CommandDeps,
  arg: unknown,
  title: string,
  filter: (name: string) => boolean = () => true,
): Promise<string | undefined> {
  const given = serverArg(arg);
  if (given) return given;
  const names = deps.host
    .servers()
    .map((s) => s.name)
    .filter(filter);
  if (names.length === 0) {
    void vscode.window.showInformationMessage('No MCP server to act on.');
    return undefined;
  }
  return vscode.window.showQuickPick(names, { title: `MCP Host: ${title}`, placeHolder: 'Server' });
}

/** How every command's failure is shown: logged, and a message with the hint (what to do next). */
export function reportCommandError(log: ChannelLogger, id: CommandId, e: unknown): void {
  const what = id.replace('mcpHost.', '');
  const msg = errorText(e);
  log.error(`${what}: ${msg}`);
  void vscode.window.showErrorMessage(`${what}: ${msg}`);
}

/** Server-action commands (the tree's inline and context actions, the view title, the palette). */
/** The commands this module handles (listed, so a new command elsewhere needs no change here). */
export type ServerCommandId = Extract<
  CommandId,
  | 'mcpHost.refresh'
  | 'mcpHost.showLogs'
  | 'mcpHost.startServer'
  | 'mcpHost.stopServer'
  | 'mcpHost.restartServer'
  | 'mcpHost.enableServer'
  | 'mcpHost.disableServer'
  | 'mcpHost.authenticate'
  | 'mcpHost.signOut'
  | 'mcpHost.signInEnterprise'
  | 'mcpHost.signOutEnterprise'
  | 'mcpHost.openConfig'
  | 'mcpHost.addServer'
>;

export function serverCommands(deps: CommandDeps): Pick<CommandTable, ServerCommandId> {
  const { controller } = deps;
  return {
    'mcpHost.refresh': async () => {
      deps.mainLog.info('refresh requested');
      await controller.reload();
    },
    'mcpHost.showLogs': async (arg) => {
      const name = serverArg(arg);
      if (name) deps.logs.show(name);
      else deps.mainLog.show(true);
    },
    ...lifecycleCommands(deps),
    ...authCommands(deps),
    'mcpHost.openConfig': async (arg) => {
      if (arg && typeof arg === 'object' && (arg as { create?: unknown }).create === true) {
        await createProjectConfig();
        return;
      }
      const target = configTarget(controller, arg);
      if (target) await revealEntry(target);
      else await openConfigPicker(controller);
    },
    'mcpHost.addServer': async () => {
      await addServer(controller);
    },
  };
}

type LifecycleCommandId = Extract<
  ServerCommandId,
  | 'mcpHost.startServer'
  | 'mcpHost.stopServer'
  | 'mcpHost.restartServer'
  | 'mcpHost.enableServer'
  | 'mcpHost.disableServer'
>;

/** Each picks a server (or takes the tree's) and does one thing to it: a table of title and action. */
function lifecycleCommands(deps: CommandDeps): Pick<CommandTable, LifecycleCommandId> {
  const { host, controller } = deps;
  const table: Record<LifecycleCommandId, [title: string, act: (name: string) => Promise<void>]> = {
    'mcpHost.startServer': ['Start Server', (name) => startServer(deps, name)],
    'mcpHost.stopServer': ['Stop Server', (name) => host.stop(name)],
    'mcpHost.restartServer': [
      'Restart Server',
      async (name) => {
        await forgetNeedsAuth(deps, name);
        if (controller.gate(name)) await startServer(deps, name);
        else await host.restart(name);
      },
    ],
    'mcpHost.enableServer': ['Enable Server', (name) => setEnabled(controller, name, false)],
    'mcpHost.disableServer': ['Disable Server', (name) => setEnabled(controller, name, true)],
  };
  return Object.fromEntries(
    Object.entries(table).map(([id, [title, act]]) => [
      id,
      async (arg: unknown) => {
        const name = await pickServer(deps, arg, title);
        if (name) await act(name);
      },
    ]),
  ) as Pick<CommandTable, LifecycleCommandId>;
}

/** A user's Start / Restart probes the server now, even inside its needs-auth quiet period. */
async function forgetNeedsAuth(deps: CommandDeps, name: string): Promise<void> {
  const def = deps.controller.definition(name);
  if (def && isRemoteDef(def)) await deps.auth.clearNeedsAuth(def);
}

/** Start: a server held by its config, the policy or a missing approval says so (or asks) instead. */
async function startServer(deps: CommandDeps, name: string): Promise<void> {
  const { controller } = deps;
  await forgetNeedsAuth(deps, name);
  const held = controller.gate(name);
  if (held === 'config') {
    const pick = await vscode.window.showInformationMessage(`"${name}" is disabled in its configuration.`, 'Enable');
    if (pick) await vscode.commands.executeCommand('mcpHost.enableServer', name);
    return;
  }
  const admission = controller.definition(name)?.admission;
  if (admission && !admission.run && admission.reason === 'policy') {
    void vscode.window.showWarningMessage(`"${name}": ${admission.message}`);
    return;
  }
  if (held) {
    await controller.approveAndStart(name);
    return;
  }
  await deps.host.start(name);
}

async function setEnabled(controller: ConfigController, name: string, disabled: boolean): Promise<void> {
  const def = controller.definition(name);
  if (!def) throw new Error(`no server named "${name}"`);
  // Files we own an edit path for get `disabled` written next to the entry; other scopes use
  // a per-workspace list so a managed or another app's file is never touched.
  if (controller.isUserDisabled(name) || !['user', 'workspace', 'project'].includes(def.source.scope)) {
    await controller.setUserDisabled(name, disabled);
    return;
  }
  await setDisabled(def, disabled);
  await controller.reload();
}

type AuthCommandId = Extract<
  ServerCommandId,
  'mcpHost.authenticate' | 'mcpHost.signOut' | 'mcpHost.signInEnterprise' | 'mcpHost.signOutEnterprise'
>;

function authCommands(deps: CommandDeps): Pick<CommandTable, AuthCommandId> {
  const { host, controller } = deps;
  /** Picks a remote server, runs an OAuth action on it, then reconnects it with the new credentials. */
  const withRemote = async (
    arg: unknown,
    title: string,
    act: (def: ServerDefinition) => Promise<void>,
  ): Promise<void> => {
    const name = await pickServer(deps, arg, title, (n) => isRemoteDef(controller.definition(n)));
    const def = name ? controller.definition(name) : undefined;
    if (!def) return;
    await act(def);
    await host.restart(def.name);
  };
  return {
    'mcpHost.authenticate': (arg) => withRemote(arg, 'Authenticate', (def) => deps.auth.authenticate(def)),
    'mcpHost.signOut': (arg) => withRemote(arg, 'Sign Out', (def) => deps.auth.signOut(def)),
    'mcpHost.signInEnterprise': async () => {
      if (!(await deps.auth.signInEnterprise())) return;
      // Every server waiting for a sign-in tries again now: those the IdP serves connect without a prompt.
      for (const s of host.servers()) {
        if (s.state.kind !== 'needs-auth') continue;
        await deps.auth.clearNeedsAuth(s.definition);
        await host.restart(s.name);
      }
    },
    'mcpHost.signOutEnterprise': async () => {
      const remote = host
        .servers()
        .map((s) => s.definition)
        .filter(isRemoteDef);
      for (const def of await deps.auth.signOutEnterprise(remote)) await host.restart(def.name);
    },
  };
}

function isRemoteDef(def: ServerDefinition | undefined): boolean {
  return !!def && isRemote(def.config);
}

function configTarget(controller: ConfigController, arg: unknown): ConfigTarget | undefined {
  if (
    arg &&
    typeof arg === 'object' &&
    typeof (arg as ConfigTarget).file === 'string' &&
    Array.isArray((arg as ConfigTarget).jsonPath)
  ) {
    return { file: (arg as ConfigTarget).file, jsonPath: (arg as ConfigTarget).jsonPath };
  }
  const name = serverArg(arg);
  const def = name ? controller.definition(name) : undefined;
  if (!def || def.source.scope === 'dynamic') return undefined;
  return { file: def.source.file, jsonPath: def.source.jsonPath };
}
