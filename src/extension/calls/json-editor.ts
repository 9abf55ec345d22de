/**
 * Editing a value as a JSON document: an untitled JSONC editor pre-filled from the schema, with
 * "Send" and "Cancel" as CodeLens actions on its first line (always visible, unlike a toast that
 * hides while the user types) and in a notification. The text is parsed and validated on Send; a
 * problem is shown in the lens and the notification, and the document stays open for fixing.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { NO_VALUE, parseJsonDocument } from '../../core/calls/index.js';

type Choice = 'send' | 'cancel';

const SEND = 'mcpHost.jsonArguments.send';
const CANCEL = 'mcpHost.jsonArguments.cancel';

/** Open JSON forms by document URI: the problem to show and how to answer the waiting form. */
const sessions = new Map<string, { title: string; problem?: string; choose: (c: Choice) => void }>();
const lensesChanged = new vscode.EventEmitter<void>();

/** Registers the CodeLens provider and the two commands behind it. */
export function registerJsonEditor(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeLensProvider(
      { scheme: 'untitled' },
      {
        onDidChangeCodeLenses: lensesChanged.event,
        provideCodeLenses(doc) {
          const s = sessions.get(doc.uri.toString());
          if (!s) return [];
          const top = new vscode.Range(0, 0, 0, 0);
          const arg = [doc.uri.toString()];
          const lenses = [
            new vscode.CodeLens(top, {
              title: '$(send) Send',
              tooltip: `Send these arguments (${s.title})`,
              command: SEND,
              arguments: arg,
            }),
            new vscode.CodeLens(top, { title: 'Cancel', command: CANCEL, arguments: arg }),
          ];
          if (s.problem) lenses.push(new vscode.CodeLens(top, { title: `$(warning) ${s.problem}`, command: '' }));
          return lenses;
        },
      },
    ),
    vscode.commands.registerCommand(SEND, (uri: string) => sessions.get(uri)?.choose('send')),
    vscode.commands.registerCommand(CANCEL, (uri: string) => sessions.get(uri)?.choose('cancel')),
  );
}

/**
 * Opens the document and waits until the user sends a valid value (resolves it) or cancels
 * (Cancel, closing the document, or `token`): resolves undefined. `onEmpty` decides what a
 * document holding only comments means (true: leave an optional value out, resolves undefined).
 */
export async function editJsonDocument(
  text: string,
  title: string,
  validate: (value: unknown) => string | undefined,
  problem?: string,
  token?: vscode.CancellationToken,
  onEmpty?: () => boolean,
): Promise<{ value: unknown } | undefined> {
  // A name of its own, never "Untitled-N": VS Code caches a document's lenses by URI and shows
  // the cached ones (with their commands stripped) when a new document gets a closed one's name,
  // so the second form of a session showed a Send that did nothing.
  const name = `${
    title
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'value'
  }-${randomBytes(3).toString('hex')}.jsonc`;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: name }));
  const fill = new vscode.WorkspaceEdit();
  fill.insert(doc.uri, new vscode.Position(0, 0), text);
  await vscode.workspace.applyEdit(fill);
  await vscode.window.showTextDocument(doc, { preview: false });
  const key = doc.uri.toString();
  let closed = false;
  let choose: (c: Choice) => void = () => undefined;
  const subs = [
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.toString() !== key) return;
      closed = true;
      choose('cancel');
    }),
  ];
  if (token) subs.push(token.onCancellationRequested(() => choose('cancel')));
  try {
    for (;;) {
      if (token?.isCancellationRequested || closed) return undefined;
      const choice = await new Promise<Choice>((resolve) => {
        choose = resolve;
        sessions.set(key, { title, problem, choose: resolve });
        lensesChanged.fire();
        const message = problem
          ? `${problem}. Fix the JSON, then choose Send.`
          : `Edit the JSON for ${title}, then choose Send.`;
        void vscode.window.showInformationMessage(message, 'Send', 'Cancel').then((c) => {
          // Closing the toast is not an answer: the lenses in the editor still are.
          if (c === 'Send') resolve('send');
          else if (c === 'Cancel') resolve('cancel');
        });
      });
      if (choice === 'cancel' || closed) return undefined;
      const parsed = parseJsonDocument(doc.getText());
      if ('error' in parsed) {
        if (parsed.error === NO_VALUE && onEmpty?.()) return undefined;
        problem = parsed.error;
        continue;
      }
      const bad = validate(parsed.value);
      if (bad) {
        problem = bad;
        continue;
      }
      return { value: parsed.value };
    }
  } finally {
    sessions.delete(key);
    lensesChanged.fire();
    subs.forEach((d) => d.dispose());
    if (!closed) await closeUntitled(doc);
  }
}

/** Closes the scratch document without a "save changes?" prompt: it was only ever a form. */
async function closeUntitled(doc: vscode.TextDocument): Promise<void> {
  try {
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  } catch {
    // The editor may already be gone; nothing is lost either way.
  }
}
