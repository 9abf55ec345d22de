import * as vscode from 'vscode';
import type { InputResolver } from '../../core/ports.js';

/**
 * Resolves `${input:id}` with an input box. Password inputs are kept in SecretStorage (never in a
 * file or setting); other answers only for this session, so a config reload does not ask again.
 */
export function inputResolver(secrets: vscode.SecretStorage): InputResolver {
  const session = new Map<string, string>();
  const pendingAsks = new Map<string, Promise<string | undefined>>();
  return {
    async resolve(id, ctx) {
      const key = `mcpHost.input:${ctx.file}#${id}`;
      const known = ctx.password ? await secrets.get(key) : session.get(key);
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
