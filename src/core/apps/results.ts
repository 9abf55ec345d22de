/**
 * The host's results turned back into MCP wire shapes for an app: tool results (content blocks,
 * structured content, `_meta`) and resource reads, through the shared converter
 * (capabilities/wire.ts). Blobs the core wrote to disk are sent inline up to a size an app can
 * reasonably take; a larger one becomes a link.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ContentBlock } from '@modelcontextprotocol/server';
import type { ResourceReadResult, ToolCallResult } from '../host-data.js';
import {
  toWireContents,
  toWireResourceContents,
  type WireOptions,
  type WireResourceContents,
} from '../capabilities/wire.js';

const MAX_INLINE_BLOB = 8 * 1024 * 1024;

async function blobBase64(path: string): Promise<string | undefined> {
  try {
    if ((await stat(path)).size > MAX_INLINE_BLOB) return undefined;
    return (await readFile(path)).toString('base64');
  } catch {
    return undefined;
  }
}

const forApps: WireOptions = { readBlob: blobBase64 };

export interface WireToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export async function toWireToolResult(r: ToolCallResult): Promise<WireToolResult> {
  const out: WireToolResult = { content: await toWireContents(r.content, forApps), isError: r.isError };
  if (r.structuredContent) out.structuredContent = r.structuredContent;
  if (r.meta) out._meta = r.meta;
  return out;
}

export async function toWireReadResult(r: ResourceReadResult): Promise<{ contents: WireResourceContents[] }> {
  return { contents: await toWireResourceContents(r, forApps) };
}
