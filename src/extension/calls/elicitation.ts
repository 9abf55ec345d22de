/**
 * Answers servers' elicitation requests in the editor. Form requests: a modal says who asks and
 * why (Accept / Decline; Escape or closing it = cancel), then the requested fields are asked
 * with the same schema-driven inputs as tool arguments. URL requests: the message and the site's
 * host are shown, and the browser opens only after the user agrees.
 */
import * as vscode from 'vscode';
import type { ElicitationPort } from '../../core/host-api.js';
import { collectForm, planForm, urlTarget, validateValue } from '../../core/calls/index.js';
import { vscodeFormUi } from './form-ui.js';
import type { ChannelLogger } from '../ports/logger.js';

type Answer = Awaited<ReturnType<ElicitationPort['elicit']>>;
type Request = Parameters<ElicitationPort['elicit']>[1];

export class VsCodeElicitationPort implements ElicitationPort {
  /** One conversation at a time: two servers asking at once would interleave their inputs. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly log: ChannelLogger) {}

  elicit(server: string, request: Request, signal?: AbortSignal): Promise<Answer> {
    const next = this.queue.then(() => this.ask(server, request, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ask(server: string, request: Request, signal?: AbortSignal): Promise<Answer> {
    if (signal?.aborted) return { action: 'cancel' };
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer =
        request.mode === 'url' ? await this.askUrl(server, request) : await this.askForm(server, request, cts.token);
      this.log.info(`elicitation from ${server} (${request.mode}): ${answer.action}`);
      return signal?.aborted ? { action: 'cancel' } : answer;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  private async askForm(
    server: string,
    request: Extract<Request, { mode: 'form' }>,
    token: vscode.CancellationToken,
  ): Promise<Answer> {
    const plan = planForm(request.requestedSchema);
    const fields = plan.fields.map(
      (f) => `• ${f.label}${f.required ? '' : ' (optional)'}${f.description ? `: ${f.description}` : ''}`,
    );
    const choice = await vscode.window.showInformationMessage(
      `${server} asks for input`,
      { modal: true, detail: `${request.message}${fields.length ? `\n\n${fields.join('\n')}` : ''}` },
      'Accept',
      'Decline',
    );
    if (choice === 'Decline') return { action: 'decline' };
    if (choice !== 'Accept' || token.isCancellationRequested) return { action: 'cancel' };
    const content = await collectForm(plan, vscodeFormUi(token), {
      title: `${server} asks`,
      validate: (v) => validateValue(request.requestedSchema, v, 'answer'),
    });
    return content === undefined ? { action: 'cancel' } : { action: 'accept', content };
  }

  private async askUrl(server: string, request: Extract<Request, { mode: 'url' }>): Promise<Answer> {
    const target = urlTarget(request.url);
    if (!target.ok) {
      this.log.warn(`${server} asked to open a URL; declined because ${target.reason}`);
      return { action: 'decline' };
    }
    const choice = await vscode.window.showWarningMessage(
      `${server} asks you to open a page on ${target.host}`,
      {
        modal: true,
        detail: `${request.message}\n\nSite: ${target.host}\nAddress: ${target.href}\n\nOpen it only if you trust this site.`,
      },
      'Open in Browser',
      'Decline',
    );
    if (choice === 'Decline') return { action: 'decline' };
    if (choice !== 'Open in Browser') return { action: 'cancel' };
    // The string shown is the string opened: passed as is, not re-serialised by vscode.Uri.
    const opened = await vscode.env.openExternal(target.href as unknown as vscode.Uri);
    return opened ? { action: 'accept' } : { action: 'cancel' };
  }
}
