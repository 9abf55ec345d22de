/**
 * Prompt arguments and resource-template variables with the server's `completion/complete`
 * suggestions as you type: a quick pick whose items follow the typed value, asked with
 * `context.arguments` holding the answers already given. Other fields use the plain form UI.
 */
import * as vscode from 'vscode';
import { type FieldAnswer, fieldPrompt, type FormField, type FormUi, parseFieldInput } from '../../core/calls/index.js';
import type { Logger } from '../../core/ports.js';

export type Completer = (argument: string, value: string, context: Record<string, string>) => Promise<string[]>;

interface Item extends vscode.QuickPickItem {
  value: string;
}

/** Wraps `base`: string fields become a completing pick, everything else is asked by `base`. */
export function completingFormUi(base: FormUi, complete: Completer, log: Logger): FormUi {
  const given: Record<string, string> = {};
  return {
    async ask(field, ctx) {
      const answer =
        field.kind === 'string' && field.format !== 'password'
          ? await completingPick(field, ctx, { ...given }, complete, log)
          : await base.ask(field, ctx);
      if (answer && !answer.skip && answer.value !== undefined) given[field.name] = String(answer.value);
      return answer;
    },
    editJson: (text, ctx) => base.editJson(text, ctx),
  };
}

function completingPick(
  field: FormField,
  ctx: { step: number; total: number; title: string; initial?: unknown },
  context: Record<string, string>,
  complete: Completer,
  log: Logger,
): Promise<FieldAnswer | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  const title = `${ctx.title}: ${field.label}${ctx.total > 1 ? ` (${ctx.step}/${ctx.total})` : ''}`;
  qp.title = title;
  qp.placeholder = fieldPrompt(field);
  qp.ignoreFocusOut = true;
  // Items are the server's; VS Code must not filter them against the typed text a second time.
  qp.matchOnDescription = false;
  (qp as unknown as { sortByLabel?: boolean }).sortByLabel = false;
  qp.value = typeof ctx.initial === 'string' ? ctx.initial : '';
  let asked = 0;
  /** The typed value the shown items were computed for: a pick from a stale list must not beat what was typed. */
  let itemsFor: string | undefined;
  const refresh = async (value: string): Promise<void> => {
    const mine = ++asked;
    qp.busy = true;
    try {
      const values = await complete(field.name, value, context);
      if (mine !== asked) return;
      const typed: Item[] =
        value && !values.includes(value) ? [{ label: value, description: '(as typed)', value, alwaysShow: true }] : [];
      qp.items = [...typed, ...values.map((v) => ({ label: v, value: v, alwaysShow: true }))];
      itemsFor = value;
    } catch (e) {
      log.warn(`completion for ${field.name} failed: ${(e as Error).message}`);
      if (mine === asked)
        qp.items = value ? [{ label: value, description: '(as typed)', value, alwaysShow: true }] : [];
    } finally {
      if (mine === asked) qp.busy = false;
    }
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: FieldAnswer | undefined): void => {
      if (done) return;
      done = true;
      resolve(a);
      qp.dispose();
    };
    qp.onDidChangeValue((v) => void refresh(v));
    qp.onDidAccept(() => {
      const picked = itemsFor === qp.value ? qp.selectedItems[0]?.value : undefined;
      const text = picked ?? qp.value;
      const r = parseFieldInput(field, text);
      if ('error' in r) {
        // QuickPick has no validation message in this API version; the title carries it.
        qp.title = `${title}: ${r.error}`;
        return;
      }
      finish(r.answer);
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
    void refresh(qp.value);
  });
}
