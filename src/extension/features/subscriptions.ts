/**
 * An open resource document follows its resource: subscribed (when the server supports it) while
 * the document is open, re-read on `notifications/resources/updated`, unsubscribed when closed.
 */
import * as vscode from 'vscode';
import { ResourceSubscriptions } from '../../core/features/index.js';
import type { CallsContext } from '../calls/context.js';

export async function followResource(
  ctx: CallsContext,
  doc: vscode.Uri,
  server: string,
  uri: string,
  reread: () => Promise<string>,
): Promise<void> {
  const s = ctx.host.server(server);
  if (
    s?.state.kind !== 'connected' ||
    (s.state.capabilities.resources as { subscribe?: boolean } | undefined)?.subscribe !== true
  )
    return;
  let rereading = Promise.resolve();
  const sub = await ctx.host.features.subscriptions.subscribe(
    server,
    uri,
    () => {
      // One re-read at a time; a burst of updates ends with the latest content.
      rereading = rereading.then(async () => {
        try {
          ctx.results.replace(doc, await reread());
          ctx.log.info(`${uri} from ${server} changed; re-read`);
        } catch (e) {
          ctx.log.warn(`re-reading ${uri} from ${server} failed: ${(e as Error).message}`);
        }
      });
    },
    (method) =>
      ctx.host.withClient(server, `resources/${method}`, async (c) => {
        if (!ResourceSubscriptions.supported(c)) return false;
        await (method === 'subscribe' ? c.subscribeResource({ uri }) : c.unsubscribeResource({ uri }));
        return true;
      }),
  );
  if (!sub.subscribed) return;
  ctx.log.info(`following ${uri} from ${server} (resources/subscribe)`);
  const closed = vscode.workspace.onDidCloseTextDocument((d) => {
    if (d.uri.toString() !== doc.toString()) return;
    closed.dispose();
    sub.dispose();
    ctx.log.info(`stopped following ${uri} from ${server} (resources/unsubscribe)`);
  });
}
