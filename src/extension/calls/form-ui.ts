/**
 * The VS Code face of a form plan: input boxes for text and numbers (validated as the user
 * types), pick lists for booleans and enums, a JSON editor for nested values. Escape anywhere
 * resolves `undefined`, which the caller treats as a quiet cancel.
 */
import * as vscode from 'vscode';
import {
  type FieldAnswer,
  fieldHint,
  fieldPrompt,
  type FormField,
  type FormUi,
  jsonDocumentText,
  parseFieldInput,
  sameValue,
  validateFieldText,
} from '../../core/calls/index.js';
import { editJsonDocument } from './json-editor.js';

interface ValueItem extends vscode.QuickPickItem {
  answer: FieldAnswer;
}

const SKIP_LABEL = '(skip)';

function toText(field: FormField, v: unknown): string {
  if (v === undefined) return '';
  if (field.kind === 'string' && typeof v === 'string') return v;
  if ((field.kind === 'number' || field.kind === 'integer') && typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

function stepTitle(title: string, field: FormField, step: number, total: number): string {
  return `${title}: ${field.label}${total > 1 ? ` (${step}/${total})` : ''}`;
}

/** A JSON field goes to an editor when it is an object with declared properties (too big for one line). */
function wantsEditor(field: FormField): boolean {
  const props = field.schema.properties;
  return (
    field.kind === 'json' &&
    field.jsonShape === 'object' &&
    typeof props === 'object' &&
    props !== null &&
    Object.keys(props).length > 0
  );
}

/** Builds the form UI. `token` (elicitation) closes any open input when the server gives up. */
export function vscodeFormUi(token?: vscode.CancellationToken): FormUi {
  return {
    async ask(field, ctx) {
      const title = stepTitle(ctx.title, field, ctx.step, ctx.total);
      switch (field.kind) {
        case 'boolean':
        case 'enum':
          return pickOne(field, title, ctx.initial, token);
        case 'multi-enum':
          return pickMany(field, title, ctx.initial, token);
        case 'json':
          if (wantsEditor(field)) return editField(field, title, ctx.initial, token);
          return inputBox(field, title, ctx.initial, token);
        default:
          return inputBox(field, title, ctx.initial, token);
      }
    },
    editJson: (text, ctx) => editJsonDocument(text, ctx.title, ctx.validate, ctx.problem, token),
  };
}

async function inputBox(
  field: FormField,
  title: string,
  initial: unknown,
  token?: vscode.CancellationToken,
): Promise<FieldAnswer | undefined> {
  const text = await vscode.window.showInputBox(
    {
      title,
      prompt: fieldPrompt(field),
      placeHolder: fieldHint(field),
      value: toText(field, initial),
      ignoreFocusOut: true,
      password: field.format === 'password',
      validateInput: (v) => validateFieldText(field, v),
    },
    token,
  );
  if (text === undefined) return undefined;
  const r = parseFieldInput(field, text);
  // validateInput already refused bad text; a stale race falls back to cancel rather than sending junk.
  return 'answer' in r ? r.answer : undefined;
}

function runPick<T extends vscode.QuickPickItem>(
  qp: vscode.QuickPick<T>,
  accept: (qp: vscode.QuickPick<T>) => FieldAnswer | string | undefined,
  token?: vscode.CancellationToken,
): Promise<FieldAnswer | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: FieldAnswer | undefined) => {
      if (done) return;
      done = true;
      subs.forEach((d) => d.dispose());
      qp.dispose();
      resolve(a);
    };
    const subs: vscode.Disposable[] = [
      qp.onDidAccept(() => {
        const r = accept(qp);
        if (typeof r === 'string') {
          // QuickPick has no validation message in this API version: the placeholder carries it.
          qp.placeholder = r;
          return;
        }
        finish(r);
      }),
      qp.onDidHide(() => finish(undefined)),
    ];
    if (token) subs.push(token.onCancellationRequested(() => finish(undefined)));
    qp.show();
  });
}

function pickOne(
  field: FormField,
  title: string,
  initial: unknown,
  token?: vscode.CancellationToken,
): Promise<FieldAnswer | undefined> {
  const qp = vscode.window.createQuickPick<ValueItem>();
  qp.title = title;
  qp.placeholder = fieldPrompt(field);
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  const items: ValueItem[] = (field.options ?? []).map((o) => ({
    label: o.label,
    description: [field.hasDefault && sameValue(field.defaultValue, o.value) ? '(default)' : '', o.description ?? '']
      .filter(Boolean)
      .join(' '),
    answer: { value: o.value },
  }));
  if (field.nullable) items.push({ label: 'null', answer: { value: null } });
  if (!field.required)
    items.push({ label: SKIP_LABEL, description: 'leave this argument out', answer: { skip: true } });
  qp.items = items;
  const active =
    initial !== undefined ? items.find((i) => 'value' in i.answer && sameValue(i.answer.value, initial)) : undefined;
  if (active) qp.activeItems = [active];
  return runPick(qp, (q) => q.selectedItems[0]?.answer ?? q.activeItems[0]?.answer, token);
}

function pickMany(
  field: FormField,
  title: string,
  initial: unknown,
  token?: vscode.CancellationToken,
): Promise<FieldAnswer | undefined> {
  const qp = vscode.window.createQuickPick<ValueItem>();
  qp.title = title;
  qp.placeholder = fieldPrompt(field);
  qp.canSelectMany = true;
  qp.ignoreFocusOut = true;
  const items: ValueItem[] = (field.options ?? []).map((o) => ({
    label: o.label,
    description: o.description,
    answer: { value: o.value },
  }));
  qp.items = items;
  if (Array.isArray(initial))
    qp.selectedItems = items.filter(
      (i) => 'value' in i.answer && initial.some((v) => 'value' in i.answer && sameValue(v, i.answer.value)),
    );
  return runPick(
    qp,
    (q) => {
      const values = q.selectedItems.map((i) => ('value' in i.answer ? i.answer.value : undefined));
      if (values.length === 0 && !field.required) return { skip: true };
      const r = parseFieldInput(field, JSON.stringify(values));
      return 'answer' in r ? r.answer : r.error;
    },
    token,
  );
}

async function editField(
  field: FormField,
  title: string,
  initial: unknown,
  token?: vscode.CancellationToken,
): Promise<FieldAnswer | undefined> {
  const text = jsonDocumentText(field.schema, {
    title: `${title}${field.required ? '' : ' (optional: leave only comments to skip it)'}`,
    current: initial,
  });
  let skipped = false;
  const r = await editJsonDocument(
    text,
    title,
    (value) => {
      const check = parseFieldInput(field, JSON.stringify(value));
      return 'error' in check ? check.error : undefined;
    },
    undefined,
    token,
    () => {
      if (field.required) return false;
      skipped = true;
      return true;
    },
  );
  if (skipped) return { skip: true };
  return r ? { value: r.value } : undefined;
}
