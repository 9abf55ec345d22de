/** What the call commands share: the host, the log, the result documents and the call history. */
import { readFile, stat } from 'node:fs/promises';
import type {
  ElicitationPort,
  HostContent,
  HostTool,
  ResourceReadResult,
  ToolCallResult,
} from '../../core/host-api.js';
import type { McpHost } from '../../core/host.js';
import type { ToolFilter } from '../../core/tools/index.js';
import type { CallHistory, RenderOptions } from '../../core/calls/index.js';
import { resourceLinkHref, type ResultDocuments } from './result-documents.js';
import type { ChannelLogger } from '../ports/logger.js';
import { hintOf } from '../../core/errors.js';

export interface CallsContext {
  host: McpHost;
  log: ChannelLogger;
  results: ResultDocuments;
  history: CallHistory;
  /** Asks the user to open pages a tool call needs first (error -32042). */
  elicitation: ElicitationPort;
  /** Tools switched off in the tree are left out of the pick. */
  toolFilter?: ToolFilter;
  /** Opens a tool's MCP App for a finished call; false when there is none or it failed to load. */
  apps?: { open(tool: HostTool, args: Record<string, unknown>, result: ToolCallResult): Promise<boolean> };
}

const MAX_BLOB_IMAGE_BYTES = 6 * 1024 * 1024;

/**
 * Render options for a result: resource links as relative links the preview can follow, and
 * image blobs (written to disk by the core) read back as data URIs so the preview shows them.
 */
export async function renderOptions(blobs: { path?: string; mimeType?: string }[]): Promise<RenderOptions> {
  const blobImages = new Map<string, string>();
  for (const b of blobs) {
    if (!b.path || !b.mimeType || !/^image\/[\w.+-]+$/.test(b.mimeType) || blobImages.has(b.path)) continue;
    try {
      if ((await stat(b.path)).size > MAX_BLOB_IMAGE_BYTES) continue;
      blobImages.set(b.path, `data:${b.mimeType};base64,${(await readFile(b.path)).toString('base64')}`);
    } catch {
      // The blob file went away (cleaned up); the document still links to where it was.
    }
  }
  return { linkFor: resourceLinkHref, blobImages };
}

export function blobsOfContents(contents: HostContent[]): { path?: string; mimeType?: string }[] {
  return contents.flatMap((c) =>
    c.type === 'resource' && c.blobPath ? [{ path: c.blobPath, mimeType: c.mimeType }] : [],
  );
}

export function blobsOfRead(r: ResourceReadResult): { path?: string; mimeType?: string }[] {
  return r.contents.map((c) => ({ path: c.blobPath, mimeType: c.mimeType }));
}

/** A message for people from any thrown value (HostError carries a hint on what to do next). */
export function errorText(e: Error): string {
  const hint = hintOf(e);
  return hint ? `${e.message} ${hint}` : e.message;
}
