/**
 * The host's results back into MCP wire shapes, for the peers that speak MCP to the host: agents
 * through the gateway and MCP Apps. The reverse of results.ts: there blobs were moved into files;
 * a peer may not share this file system view, so they are read back and sent inline, as the
 * server sent them. Each peer says how blobs are read (in full, or up to a size) and how URIs
 * are shown to it.
 */
import { readFile } from 'node:fs/promises';
import type { ContentBlock } from '@modelcontextprotocol/server';
import type { HostContent, ResourceReadResult } from '../host-data.js';
import { copyMediaContent } from './results.js';

export interface WireOptions {
  /** How a resource URI is shown to the peer (the gateway wraps other servers' URIs). Default: as is. */
  mapUri?: (uri: string) => string;
  /**
   * A blob file as base64, or undefined to leave it out (too large, gone). Default: the whole file,
   * and a read failure is thrown.
   */
  readBlob?: (path: string) => Promise<string | undefined>;
}

export type WireResourceContents = { uri: string; mimeType?: string; _meta?: Record<string, unknown> } & (
  { text: string } | { blob: string }
);

const asIs = (u: string): string => u;
const wholeFile = async (path: string): Promise<string> => (await readFile(path)).toString('base64');

export async function toWireContent(c: HostContent, opts: WireOptions = {}): Promise<ContentBlock> {
  const mapUri = opts.mapUri ?? asIs;
  switch (c.type) {
    case 'text':
    case 'image':
    case 'audio':
      return copyMediaContent(c);
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: mapUri(c.uri),
        name: c.name ?? c.uri,
        ...(c.description !== undefined ? { description: c.description } : {}),
        ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}),
      };
    case 'resource': {
      const base = { uri: mapUri(c.uri), ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}) };
      if (c.text !== undefined || c.blobPath === undefined)
        return { type: 'resource', resource: { ...base, text: c.text ?? '' } };
      const blob = await (opts.readBlob ?? wholeFile)(c.blobPath);
      if (blob !== undefined) return { type: 'resource', resource: { ...base, blob } };
      // Left out (too large, gone): the peer still learns the resource exists.
      return { type: 'resource_link', ...base, name: c.uri };
    }
  }
}

export async function toWireContents(list: readonly HostContent[], opts: WireOptions = {}): Promise<ContentBlock[]> {
  const out: ContentBlock[] = [];
  // In order, one at a time: blobs may be large and the order of content matters.
  for (const c of list) out.push(await toWireContent(c, opts));
  return out;
}

/** The contents of a resource read; a blob the reader leaves out is dropped from the list. */
export async function toWireResourceContents(
  r: ResourceReadResult,
  opts: WireOptions = {},
): Promise<WireResourceContents[]> {
  const mapUri = opts.mapUri ?? asIs;
  const out: WireResourceContents[] = [];
  for (const c of r.contents) {
    const base = {
      uri: mapUri(c.uri),
      ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}),
      ...(c.meta !== undefined ? { _meta: c.meta } : {}),
    };
    if (c.text !== undefined || c.blobPath === undefined) {
      out.push({ ...base, text: c.text ?? '' });
      continue;
    }
    const blob = await (opts.readBlob ?? wholeFile)(c.blobPath);
    if (blob !== undefined) out.push({ ...base, blob });
  }
  return out;
}
