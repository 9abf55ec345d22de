/**
 * The host's results turned back into MCP wire shapes for an app: tool results (content blocks,
 * structured content, `_meta`) and resource reads. Blobs the core wrote to disk are read back and
 * sent inline, up to a size an app can reasonably take.
 */
import { readFile, stat } from 'node:fs/promises';
import type { HostContent, ResourceReadResult, ToolCallResult } from '../host-api.js';

const MAX_INLINE_BLOB = 8 * 1024 * 1024;

async function blobBase64(path: string): Promise<string | undefined> {
  try {
    if ((await stat(path)).size > MAX_INLINE_BLOB) return undefined;
    return (await readFile(path)).toString('base64');
  } catch {
    return undefined;
  }
}

type WireBlock = Record<string, unknown> & { type: string };

async function toWireBlock(c: HostContent): Promise<WireBlock> {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text };
    case 'image':
    case 'audio':
      return { type: c.type, data: c.data, mimeType: c.mimeType };
    case 'resource_link':
      return { type: 'resource_link', uri: c.uri, name: c.name ?? c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}), ...(c.description ? { description: c.description } : {}) };
    case 'resource': {
      const base = { uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
      if (c.text !== undefined) return { type: 'resource', resource: { ...base, text: c.text } };
      const blob = c.blobPath ? await blobBase64(c.blobPath) : undefined;
      if (blob !== undefined) return { type: 'resource', resource: { ...base, blob } };
      // Too large (or gone): the app still learns the resource exists.
      return { type: 'resource_link', uri: c.uri, name: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}) };
    }
  }
}

export interface WireToolResult {
  [key: string]: unknown;
  content: WireBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export async function toWireToolResult(r: ToolCallResult): Promise<WireToolResult> {
  const content: WireBlock[] = [];
  for (const c of r.content) content.push(await toWireBlock(c));
  const out: WireToolResult = { content, isError: r.isError };
  if (r.structuredContent) out.structuredContent = r.structuredContent;
  if (r.meta) out._meta = r.meta;
  return out;
}

export async function toWireReadResult(r: ResourceReadResult): Promise<{ contents: Record<string, unknown>[] }> {
  const contents: Record<string, unknown>[] = [];
  for (const c of r.contents) {
    const item: Record<string, unknown> = { uri: c.uri };
    if (c.mimeType) item.mimeType = c.mimeType;
    if (c.meta) item._meta = c.meta;
    if (c.text !== undefined) item.text = c.text;
    else if (c.blobPath) {
      const blob = await blobBase64(c.blobPath);
      if (blob === undefined) continue;
      item.blob = blob;
    } else item.text = '';
    contents.push(item);
  }
  return { contents };
}
