/**
 * Bounded tool results for agents. One huge result can end an agent's turn (Claude Code cuts at
 * about 25,000 tokens and spills the rest to a file), so a result past the limit reaches the agent
 * cut, with a note naming a gateway resource that holds the whole of it, readable in pages. Binary
 * content (images, audio, blobs) is never inlined past the limit: it is kept and linked instead.
 * Spilled results live in memory (`ResultStore`), bounded in size, the oldest first to go, or
 * wherever a `ResultPages` keeps them (the team gateway's processes share theirs: core/cluster/).
 * The palette does not come through here, so its result documents stay whole.
 */
import { randomUUID } from 'node:crypto';

/** Tokens are estimated as characters / 4, the rule of thumb agents themselves use. */
export const CHARS_PER_TOKEN = 4;
export const DEFAULT_MAX_RESULT_TOKENS = 25_000;
export const RESULT_SCHEME = 'mcp-host-result://';

export interface ResultLimitOptions {
  /** Largest result an agent receives whole, in tokens (characters / 4). 0 or less: no limit. Default 25,000. */
  maxTokens?: number;
}

/** Content items as the gateway sends them (the wire shape of a tool result's `content`). */
export type WireItem = { type: string } & Record<string, unknown>;

/** One item a read of `mcp-host-result://…` answers (exactly one of text and blob is set). */
export interface ResultItem {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
}

/** Where cut results are kept and read back: in memory here, or shared (core/cluster/). */
export interface ResultPages {
  /** Keeps a result; resolves with its id (its URI is `mcp-host-result://<id>`). */
  put(text: string, binary: Spilled['binary'], pageChars: number, structured?: string): string | Promise<string>;
  /** As `ResultStore.read`: undefined for other URIs; throws (rejects) for a dropped result or a bad page. */
  read(uri: string): ResultItem[] | undefined | Promise<ResultItem[] | undefined>;
}

/** A kept result. */
export interface Spilled {
  text: string;
  /** The result's `structuredContent` as JSON, when it had one: read back in pages of its own. */
  structured?: string;
  /** Binary items, in result order, as they came (image/audio `data`, resource `blob`). */
  binary: { mimeType?: string; data: string }[];
  pageChars: number;
  size: number;
}

function isBinary(item: WireItem): boolean {
  if (item.type === 'image' || item.type === 'audio') return true;
  const r = item.resource as { blob?: unknown } | undefined;
  return item.type === 'resource' && typeof r?.blob === 'string';
}

function textOf(item: WireItem): string | undefined {
  if (item.type === 'text' && typeof item.text === 'string') return item.text;
  const r = item.resource as { text?: unknown } | undefined;
  if (item.type === 'resource' && typeof r?.text === 'string') return r.text;
  return undefined;
}

/** Characters an item costs the agent's context; binary data counts as its base64 text. */
function sizeOf(item: WireItem): number {
  const t = textOf(item);
  if (t !== undefined) return t.length;
  if (typeof item.data === 'string') return item.data.length;
  const r = item.resource as { blob?: unknown } | undefined;
  if (typeof r?.blob === 'string') return r.blob.length;
  return JSON.stringify(item).length;
}

/** Whole results the gateway keeps for agents to read; at most `maxChars` in all, the oldest dropped first. */
export class ResultStore implements ResultPages {
  private readonly entries = new Map<string, Spilled>();
  private total = 0;

  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  /** Keeps a result; its URI is `mcp-host-result://<id>`. */
  put(text: string, binary: Spilled['binary'], pageChars: number, structured?: string): string {
    const id = randomUUID();
    const size = text.length + (structured?.length ?? 0) + binary.reduce((n, b) => n + b.data.length, 0);
    this.entries.set(id, { text, binary, pageChars, size, ...(structured !== undefined ? { structured } : {}) });
    this.total += size;
    for (const [old, e] of this.entries) {
      if (this.total <= this.maxChars || old === id) break;
      this.entries.delete(old);
      this.total -= e.size;
    }
    return id;
  }

  /** Entries kept now. */
  get count(): number {
    return this.entries.size;
  }

  /**
   * Reads `mcp-host-result://<id>?page=N` (text, 1-based pages), `…?part=K` (the K-th binary
   * item) or `…?structured&page=N` (the structuredContent's JSON, in pages); the bare URI is page 1.
   * Undefined for other URIs; throws for a dropped result or a page past the end.
   */
  read(uri: string): ResultItem[] | undefined {
    const id = resultId(uri);
    if (id === undefined) return undefined;
    return readKept(uri, this.entries.get(id));
  }
}

/** The id in `mcp-host-result://<id>?…`; undefined for another URI. */
export function resultId(uri: string): string | undefined {
  if (!uri.startsWith(RESULT_SCHEME)) return undefined;
  return uri.slice(RESULT_SCHEME.length).split('?')[0] ?? '';
}

/** What `uri` asks of the result `e` (undefined: not kept), read as `ResultStore.read` says. */
export function readKept(uri: string, e: Spilled | undefined): ResultItem[] {
  if (!e) throw new Error(`${uri}: this result is no longer kept (the gateway keeps the most recent results only)`);
  const params = new URLSearchParams(uri.split('?')[1] ?? '');
  const part = params.get('part');
  if (part !== null) {
    const b = e.binary[Number(part) - 1];
    if (!b) throw new Error(`${uri}: the result has ${e.binary.length} binary part(s)`);
    return [{ uri, mimeType: b.mimeType ?? 'application/octet-stream', blob: b.data }];
  }
  const structured = params.has('structured');
  if (structured && e.structured === undefined) throw new Error(`${uri}: the result had no structuredContent`);
  const text = structured ? e.structured! : e.text;
  const page = Number(params.get('page') ?? '1');
  const pages = pageCount(text.length, e.pageChars);
  if (!Number.isInteger(page) || page < 1 || page > pages) throw new Error(`${uri}: pages are 1 to ${pages}`);
  const mimeType = structured ? 'application/json' : 'text/plain';
  return [{ uri, mimeType, text: text.slice((page - 1) * e.pageChars, page * e.pageChars) }];
}

/** What a read of `uri` needs of a kept result: its text, its structuredContent's JSON, or its binary parts. */
export function partNeeded(uri: string): 'text' | 'structured' | 'binary' {
  const params = new URLSearchParams(uri.split('?')[1] ?? '');
  if (params.get('part') !== null) return 'binary';
  return params.has('structured') ? 'structured' : 'text';
}

function pageCount(chars: number, pageChars: number): number {
  return Math.max(1, Math.ceil(chars / pageChars));
}

/** A tool result as the gateway sends it, the parts the limit applies to. */
export interface LimitedResult {
  content: WireItem[];
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * A tool result as the agent gets it: unchanged within the limit, which counts `structuredContent`
 * (its JSON) with the content. Past it, the content is cut as `limitResult` does and the
 * structuredContent is not sent at all (a cut JSON value would not be one), but kept with the rest,
 * readable in pages at `…?structured&page=N`. An agent's SDK client refuses a result without it
 * when the tool declares an `outputSchema`, unless it is an error, so such a result is marked one;
 * the note says why.
 */
export async function limitToolResult(
  result: LimitedResult,
  opts: ResultLimitOptions,
  store: ResultPages,
  hasOutputSchema = false,
): Promise<LimitedResult> {
  if (result.structuredContent === undefined) {
    const content = await limitResult(result.content, opts, store);
    return content === result.content ? result : { ...result, content };
  }
  const json = JSON.stringify(result.structuredContent);
  const content = await limitResult(result.content, opts, store, json);
  if (content === result.content) return result;
  return { content, ...(result.isError || hasOutputSchema ? { isError: true } : {}) };
}

/**
 * `content` as the agent gets it: unchanged within the limit; past it, the text cut to the limit,
 * binary items replaced by links, and a note saying where the whole result is. `structured`, the
 * JSON of a structuredContent the caller will not send, counts towards the limit and is kept too.
 */
export async function limitResult(
  content: WireItem[],
  opts: ResultLimitOptions,
  store: ResultPages,
  structured?: string,
): Promise<WireItem[]> {
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_RESULT_TOKENS;
  if (maxTokens <= 0) return content;
  const budget = maxTokens * CHARS_PER_TOKEN;
  const total = content.reduce((n, item) => n + sizeOf(item), 0) + (structured?.length ?? 0);
  if (total <= budget) return content;

  const texts: string[] = [];
  const binary: Spilled['binary'] = [];
  for (const item of content) {
    const t = textOf(item);
    if (t !== undefined) texts.push(t);
    else if (isBinary(item)) {
      const r = item.resource as { blob?: string; mimeType?: string } | undefined;
      const data = typeof item.data === 'string' ? item.data : (r?.blob ?? '');
      const mimeType = typeof item.mimeType === 'string' ? item.mimeType : r?.mimeType;
      binary.push({ data, ...(mimeType !== undefined ? { mimeType } : {}) });
    }
  }
  const whole = texts.join('\n');
  const id = await store.put(whole, binary, budget, structured);
  const base = `${RESULT_SCHEME}${id}`;

  const out: WireItem[] = [];
  let left = budget;
  let shown = 0;
  let part = 0;
  for (const item of content) {
    const t = textOf(item);
    if (isBinary(item)) {
      part++;
      out.push({
        type: 'resource_link',
        uri: `${base}?part=${part}`,
        name: `binary part ${part} of the result`,
        mimeType: binary[part - 1]?.mimeType ?? 'application/octet-stream',
      });
      continue;
    }
    if (t === undefined) {
      out.push(item);
      continue;
    }
    if (left <= 0) continue;
    const cut = t.slice(0, left);
    left -= cut.length;
    shown += cut.length;
    out.push({ type: 'text', text: cut });
  }
  const pages = pageCount(whole.length, budget);
  out.push({
    type: 'text',
    text:
      `[mcp-host: this result is about ${Math.ceil(total / CHARS_PER_TOKEN).toLocaleString('en')} tokens, over the ` +
      `limit of ${maxTokens.toLocaleString('en')}; shown: the first ${shown.toLocaleString('en')} of ` +
      `${whole.length.toLocaleString('en')} text characters${binary.length ? `, ${binary.length} binary part(s) linked, not inlined` : ''}. ` +
      `The whole text is the resource ${base} in ${pages} page(s): read ${base}?page=1 … ${base}?page=${pages} with resources/read.` +
      (structured !== undefined
        ? ` The structuredContent (${structured.length.toLocaleString('en')} characters of JSON) is not sent; it is ` +
          `${base}?structured&page=1 … ${base}?structured&page=${pageCount(structured.length, budget)}.]`
        : ']'),
  });
  return out;
}
