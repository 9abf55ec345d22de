import * as vscode from 'vscode';
import type { InputResolver } from '../../core/ports.js';

/**
 * Resolves `${input:id}` with an input box. Password inputs are kept in SecretStorage (never in a
 * file or setting); other answers only for this session, so a config reload does not ask again.
 * Keys: `inputSecretKey(file, id)`.
 */
export function inputResolver(secrets: vscode.SecretStorage): InputResolver {
  const session = new Map<string, string>();
  const pendingAsks = new Map<string, Promise<string | undefined>>();
  return {
    async resolve(id, ctx) {
      const key = inputSecretKey(ctx.file, id);
      // SecretStorage first for every input: installing from the registry stores secret values
      // there ahead of time, also for files whose format cannot mark an input as a password.
      const known = (await secrets.get(key)) ?? (ctx.password ? undefined : session.get(key));
      if (known !== undefined) return known;
      // Several servers may use one input: ask once and share the answer.
      let ask = pendingAsks.get(key);
      if (!ask) {
        ask = Promise.resolve(
          vscode.window.showInputBox({
            title: `MCP Host: value for "${id}"`,
            prompt: ctx.description ?? `Value for \${input:${id}} in ${ctx.file}`,
            password: ctx.password,
            ignoreFocusOut: true,
          }),
        );
        pendingAsks.set(key, ask);
      }
      try {
        const value = await ask;
        if (value === undefined) return undefined;
        if (ctx.password) await secrets.store(key, value);
        else session.set(key, value);
        return value;
      } finally {
        pendingAsks.delete(key);
      }
    },
  };
}

/** Where the value of `${input:id}` used in `file` is kept. */
export function inputSecretKey(file: string, id: string): string {
  return `mcpHost.input:${file}#${id}`;
}
