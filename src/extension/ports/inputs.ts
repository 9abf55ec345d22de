/**
 * Resolves `${input:id}` of `.vscode/mcp.json` the way VS Code does, for every input type:
 * `promptString` (an input box; `password` hides it), `pickString` (a pick list of `options`) and
 * `command` (runs the command; its result is the value, asked for again at each start).
 * Answers are remembered per workspace (workspaceState), passwords in SecretStorage only;
 * `MCP Host: Clear Remembered Inputs` forgets both.
 * Keys: `inputSecretKey(file, id)` (SecretStorage and workspaceState alike).
 */
import * as vscode from 'vscode';
import type { InputDeclaration } from '../../core/config/index.js';
import type { InputResolver } from '../../core/ports.js';
import type { CommandTable } from '../command-table.js';

const PREFIX = 'mcpHost.input:';

/** Where the value of `${input:id}` used in `file` is kept. */
export function inputSecretKey(file: string, id: string): string {
  return `${PREFIX}${file}#${id}`;
}
/** workspaceState key listing the SecretStorage keys this workspace stored (SecretStorage cannot list keys). */
const SECRET_INDEX = 'mcpHost.inputSecrets';

export interface EditorInputResolver extends InputResolver {
  /** Forgets every remembered answer and stored password of this workspace; returns how many. */
  clear(): Promise<number>;
}

interface PickItem extends vscode.QuickPickItem {
  value: string;
}

async function ask(
  id: string,
  file: string,
  decl: InputDeclaration | undefined,
  description: string | undefined,
  password: boolean,
): Promise<string | undefined> {
  const title = `MCP Host: value for "${id}"`;
  if (decl?.type === 'pickString') {
    const items: PickItem[] = (decl.options ?? []).map((o) => ({
      label: o.label,
      value: o.value,
      ...(o.label !== o.value ? { detail: o.value } : {}),
      ...(o.value === decl.default ? { description: '(default)' } : {}),
    }));
    // The default first, so Enter takes it.
    items.sort((a, b) => Number(b.value === decl.default) - Number(a.value === decl.default));
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: description ?? `Pick a value for \${input:${id}} in ${file}`,
      ignoreFocusOut: true,
    });
    return picked?.value;
  }
  if (decl?.type === 'command') {
    const result: unknown = await vscode.commands.executeCommand(
      decl.command!,
      ...(decl.args === undefined ? [] : Array.isArray(decl.args) ? decl.args : [decl.args]),
    );
    if (result === undefined || result === null) return undefined;
    return typeof result === 'string' ? result : JSON.stringify(result);
  }
  return vscode.window.showInputBox({
    title,
    prompt: description ?? `Value for \${input:${id}} in ${file}`,
    password,
    ...(decl?.default !== undefined ? { value: decl.default } : {}),
    ignoreFocusOut: true,
  });
}

export function inputResolver(secrets: vscode.SecretStorage, workspaceState: vscode.Memento): EditorInputResolver {
  const pendingAsks = new Map<string, Promise<string | undefined>>();
  return {
    async resolve(id, ctx) {
      const key = inputSecretKey(ctx.file, id);
      const decl = ctx.declaration;
      const password = ctx.password === true;
      // A command's result is not an answer: it is fetched again each time, as VS Code does.
      const remember = decl?.type !== 'command';
      // SecretStorage first for every input: installing from the registry stores secret values
      // there ahead of time, also for files whose format cannot mark an input as a password.
      const known = (await secrets.get(key)) ?? (password || !remember ? undefined : workspaceState.get<string>(key));
      if (known !== undefined) return known;
      // Several servers may use one input: ask once and share the answer.
      let pending = pendingAsks.get(key);
      if (!pending) {
        pending = ask(id, ctx.file, decl, ctx.description, password);
        pendingAsks.set(key, pending);
      }
      try {
        const value = await pending;
        if (value === undefined || !remember) return value;
        if (password) {
          await secrets.store(key, value);
          const index = workspaceState.get<string[]>(SECRET_INDEX) ?? [];
          if (!index.includes(key)) await workspaceState.update(SECRET_INDEX, [...index, key]);
        } else await workspaceState.update(key, value);
        return value;
      } finally {
        pendingAsks.delete(key);
      }
    },
    async clear() {
      const plain = workspaceState.keys().filter((k) => k.startsWith(PREFIX));
      const secretKeys = workspaceState.get<string[]>(SECRET_INDEX) ?? [];
      for (const k of plain) await workspaceState.update(k, undefined);
      for (const k of secretKeys) await secrets.delete(k);
      await workspaceState.update(SECRET_INDEX, undefined);
      return plain.length + secretKeys.length;
    },
  };
}

/** `mcpHost.clearInputs`: forget the answers, then reload so servers that use them ask again. */
export function clearInputsCommand(
  resolver: EditorInputResolver,
  reload: () => Promise<void>,
): Pick<CommandTable, 'mcpHost.clearInputs'> {
  return {
    'mcpHost.clearInputs': async () => {
      const n = await resolver.clear();
      void vscode.window.showInformationMessage(
        n
          ? `Forgot ${n} remembered input ${n === 1 ? 'value' : 'values'} of this workspace; servers that use them ask again.`
          : 'No input values were remembered for this workspace.',
      );
      if (n) await reload();
    },
  };
}
