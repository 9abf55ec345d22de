/**
 * What the host answers when a server asks or tells it something: `list_changed` notifications
 * (the entry's plugin, server-entry.ts), `roots/list` (from the RootsPort) and `elicitation/create`
 * (through the ElicitationPort; both hooked in by plugins/client-features.ts). Sampling and log
 * lines are the features' (src/core/features/index.ts), their one entry point.
 */
import type { Client, ClientCapabilities, ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationPort, RelatedCalls, RootsPort } from '../host-api.js';
import { answerMaybeAsTask, type TaskAnswerStore } from '../features/tasks.js';
import { nullLogger, type Logger } from '../ports.js';
import { APP_MIME_TYPE, UI_EXTENSION_ID } from '../app-ids.js';
import type { ListKind } from './connect.js';

/** Capabilities declared in `initialize`: only what a port is there to serve (sampling: ClientFeatures.capabilities). */
export function clientCapabilities(
  ports: { roots?: RootsPort; elicitation?: ElicitationPort; apps?: boolean },
  caps: ClientCapabilities = {},
): ClientCapabilities {
  caps = { ...caps };
  if (ports.roots) caps.roots = { listChanged: true };
  if (ports.elicitation) caps.elicitation = { form: {}, url: {} };
  // MCP Apps (SEP-1865): servers may then offer tools with a UI, or change what they list.
  if (ports.apps) caps.extensions = { ...caps.extensions, [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };
  return caps;
}

/** Re-fetches one cached list after the server said it changed. */
export function installListRefresh(client: Client, refresh: (kind: ListKind) => Promise<void>): void {
  client.setNotificationHandler('notifications/tools/list_changed', () => refresh('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => refresh('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', async () => {
    await Promise.all([refresh('resources'), refresh('resourceTemplates')]);
  });
}

export interface ClientHandlerContext {
  server: string;
  roots?: RootsPort;
  elicitation?: ElicitationPort;
  /** Where a task-augmented question's answer is kept for the server to fetch (2025-11-25). */
  taskStore?: TaskAnswerStore;
  log?: Logger;
  /** Which requests in flight a question of the server may belong to. */
  relate?(meta: Record<string, unknown> | undefined): RelatedCalls;
}

/** The host's answers to what a server asks: its roots, and elicitation. */
export function installQuestions(client: Client, ctx: ClientHandlerContext): void {
  const roots = ctx.roots;
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots.roots(ctx.server) }));
  const elicitation = ctx.elicitation;
  if (elicitation) {
    client.setRequestHandler('elicitation/create', (req, extra): Promise<ElicitResult> => {
      const p = req.params;
      // Taken now, while the request it belongs to is still in flight.
      const related = ctx.relate?.(p._meta);
      // A server may ask for the answer as a task (2025-11-25) and poll for it.
      return answerMaybeAsTask(
        p,
        ctx.taskStore,
        async () => {
          const answer =
            p.mode === 'url'
              ? await elicitation.elicit(
                  ctx.server,
                  { mode: 'url', message: p.message, url: p.url, elicitationId: p.elicitationId },
                  extra.mcpReq.signal,
                  related,
                )
              : await elicitation.elicit(
                  ctx.server,
                  { mode: 'form', message: p.message, requestedSchema: p.requestedSchema as Record<string, unknown> },
                  extra.mcpReq.signal,
                  related,
                );
          return answer as ElicitResult;
        },
        ctx.log ?? nullLogger,
      ) as Promise<ElicitResult>;
    });
  }
}
