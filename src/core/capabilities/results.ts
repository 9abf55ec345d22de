/** Converts the SDK's results into the host's: content kept, blobs moved to files. */
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { HostContent, PromptGetResult, ResourceReadResult, ToolCallResult } from '../host-data.js';
import { writeBlob } from './blobs.js';

type EmbeddedResource = {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type MediaContent = { type: 'text'; text: string } | { type: 'image' | 'audio'; mimeType: string; data: string };

/**
 * Text, image and audio content have the same fields in the host and on the wire, in both
 * directions (here and wire.ts); the copy keeps those fields and drops the rest (annotations, _meta).
 */
export function copyMediaContent(c: MediaContent): Extract<HostContent, MediaContent> {
  return c.type === 'text' ? { type: 'text', text: c.text } : { type: c.type, mimeType: c.mimeType, data: c.data };
}

/** Synchronous except for an embedded blob, which is written to a file (the only I/O). */
function toHostContent(block: ContentBlock, blobDir: string): HostContent | Promise<HostContent> {
  switch (block.type) {
    case 'text':
    case 'image':
    case 'audio':
      return copyMediaContent(block);
    case 'resource_link': {
      const out: HostContent = { type: 'resource_link', uri: block.uri, name: block.name };
      if (block.description !== undefined) out.description = block.description;
      if (block.mimeType !== undefined) out.mimeType = block.mimeType;
      return out;
    }
    case 'resource': {
      const r = block.resource as EmbeddedResource;
      const out: HostContent = { type: 'resource', uri: r.uri };
      if (r.mimeType !== undefined) out.mimeType = r.mimeType;
      if (typeof r.text === 'string') out.text = r.text;
      if (typeof r.blob === 'string')
        return writeBlob(blobDir, r.blob, r.mimeType).then(({ path }) => ({ ...out, blobPath: path }));
      return out;
    }
    default: {
      // A block type newer than this host: say so rather than dropping it silently.
      const type = (block as { type?: unknown }).type;
      return { type: 'text', text: `[unsupported content type ${JSON.stringify(type)}]` };
    }
  }
}

async function toHostContents(blocks: ContentBlock[], blobDir: string): Promise<HostContent[]> {
  const out: HostContent[] = [];
  // In order, one at a time: blobs may be large and the order of content matters. Only a blob is
  // awaited: text (nearly every result) costs no extra turn of the microtask queue per block.
  for (const b of blocks) {
    const c = toHostContent(b, blobDir);
    out.push(c instanceof Promise ? await c : c);
  }
  return out;
}

/**
 * The host's view of a tool result. `structuredContent` was already checked against the tool's
 * `outputSchema` by the SDK's Client (it throws on a mismatch when the tools were listed through
 * the same client); it is passed through unchanged.
 */
export async function toToolCallResult(
  raw: CallToolResult,
  durationMs: number,
  blobDir: string,
): Promise<ToolCallResult> {
  let blocks = Array.isArray(raw.content) ? raw.content : [];
  // Protocol 2024-10-07 servers answer `{ toolResult }` instead of content blocks.
  if (!Array.isArray(raw.content) && 'toolResult' in raw) {
    blocks = [{ type: 'text', text: JSON.stringify((raw as unknown as { toolResult: unknown }).toolResult) }];
  }
  const out: ToolCallResult = {
    content: await toHostContents(blocks, blobDir),
    isError: raw.isError === true,
    durationMs,
  };
  const sc = raw.structuredContent;
  if (sc !== undefined && sc !== null && typeof sc === 'object' && !Array.isArray(sc))
    out.structuredContent = sc as Record<string, unknown>;
  if (isRecord(raw._meta)) out.meta = raw._meta;
  return out;
}

export async function toResourceReadResult(raw: ReadResourceResult, blobDir: string): Promise<ResourceReadResult> {
  const contents: ResourceReadResult['contents'] = [];
  for (const c of raw.contents as EmbeddedResource[]) {
    const item: ResourceReadResult['contents'][number] = { uri: c.uri };
    if (c.mimeType !== undefined) item.mimeType = c.mimeType;
    if (isRecord(c._meta)) item.meta = c._meta;
    if (typeof c.text === 'string') {
      item.text = c.text;
      item.size = Buffer.byteLength(c.text, 'utf8');
    }
    if (typeof c.blob === 'string') {
      const { path, size } = await writeBlob(blobDir, c.blob, c.mimeType);
      item.blobPath = path;
      item.size = size;
    }
    contents.push(item);
  }
  return { contents };
}

export async function toPromptGetResult(raw: GetPromptResult, blobDir: string): Promise<PromptGetResult> {
  const messages: PromptGetResult['messages'] = [];
  for (const m of raw.messages) messages.push({ role: m.role, content: await toHostContent(m.content, blobDir) });
  const out: PromptGetResult = { messages };
  if (raw.description !== undefined) out.description = raw.description;
  return out;
}
