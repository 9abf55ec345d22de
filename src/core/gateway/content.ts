/**
 * The host's results back into MCP wire shapes for an agent. The host moves blobs into files;
 * the agent is a separate process that may not share the file system view, so blobs are read
 * back and sent inline, as the server sent them.
 */
import { readFile } from 'node:fs/promises';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { HostContent, ResourceReadResult } from '../host-api.js';

async function blob(path: string): Promise<string> {
  return (await readFile(path)).toString('base64');
}

export async function toWireContent(c: HostContent, mapUri: (uri: string) => string = (u) => u): Promise<ContentBlock> {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: c.text };
    case 'image':
      return { type: 'image', mimeType: c.mimeType, data: c.data };
    case 'audio':
      return { type: 'audio', mimeType: c.mimeType, data: c.data };
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
      if (c.blobPath !== undefined) return { type: 'resource', resource: { ...base, blob: await blob(c.blobPath) } };
      return { type: 'resource', resource: { ...base, text: c.text ?? '' } };
    }
  }
}

export async function toWireContents(list: HostContent[], mapUri?: (uri: string) => string): Promise<ContentBlock[]> {
  const out: ContentBlock[] = [];
  for (const c of list) out.push(await toWireContent(c, mapUri));
  return out;
}

export async function toWireResourceContents(r: ResourceReadResult, mapUri: (uri: string) => string): Promise<({ uri: string; mimeType?: string } & ({ text: string } | { blob: string }))[]> {
  const out: ({ uri: string; mimeType?: string } & ({ text: string } | { blob: string }))[] = [];
  for (const c of r.contents) {
    const base = { uri: mapUri(c.uri), ...(c.mimeType !== undefined ? { mimeType: c.mimeType } : {}) };
    out.push(c.blobPath !== undefined ? { ...base, blob: await blob(c.blobPath) } : { ...base, text: c.text ?? '' });
  }
  return out;
}
