/**
 * What the host answers when a server asks or tells it something: `list_changed` notifications,
 * `roots/list` (from the RootsPort) and `elicitation/create` (through the ElicitationPort).
 * Sampling and log lines are the features' (src/core/features/index.ts), their one entry point.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationPort, RelatedCalls, RootsPort } from '../host-api.js';
import { answerMaybeAsTask } from '../features/tasks.js';
import { nullLogger, type Logger } from '../ports.js';
import { APP_MIME_TYPE, UI_EXTENSION_ID } from '../app-ids.js';
import type { ListKind } from './connect.js';

/** Capabilities declared in `initialize`: only what a port is there to serve (sampling: ClientFeatures.capabilities). */
export function clientCapabilities(ports: {
  roots?: RootsPort;
  elicitation?: ElicitationPort;
  apps?: boolean;
}): ClientCapabilities {
  const caps: ClientCapabilities = {};
  if (ports.roots) caps.roots = { listChanged: true };
  if (ports.elicitation) caps.elicitation = { form: {}, url: {} };
  // MCP Apps (SEP-1865): servers may then offer tools with a UI, or change what they list.
  if (ports.apps) caps.extensions = { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } };
  return caps;
}

export interface ClientHandlerContext {
  server: string;
  roots?: RootsPort;
  elicitation?: ElicitationPort;
  log?: Logger;
  /** Which requests in flight a question of the server may belong to. */
  relate?(meta: Record<string, unknown> | undefined): RelatedCalls;
  /** Re-fetches one cached list after the server said it changed. */
  refresh(kind: ListKind): Promise<void>;
}

export function installClientHandlers(client: Client, ctx: ClientHandlerContext): void {
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => ctx.refresh('tools'));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => ctx.refresh('prompts'));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
    await Promise.all([ctx.refresh('resources'), ctx.refresh('resourceTemplates')]);
  });
  const roots = ctx.roots;
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.roots(ctx.server) }));
  const elicitation = ctx.elicitation;
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, (req, extra): Promise<ElicitResult> => {
      const p = req.params;
      // Taken now, while the request it belongs to is still in flight.
      const related = ctx.relate?.(p._meta);
      // A server may ask for the answer as a task (2025-11-25) and poll for it.
      return answerMaybeAsTask(
        p,
        extra,
        async () => {
          const answer =
            p.mode === 'url'
              ? await elicitation.elicit(
                  ctx.server,
                  { mode: 'url', message: p.message, url: p.url, elicitationId: p.elicitationId },
                  extra.signal,
                  related,
                )
              : await elicitation.elicit(
                  ctx.server,
                  { mode: 'form', message: p.message, requestedSchema: p.requestedSchema as Record<string, unknown> },
                  extra.signal,
                  related,
                );
          return answer as ElicitResult;
        },
        ctx.log ?? nullLogger,
      ) as Promise<ElicitResult>;
    });
  }
}
