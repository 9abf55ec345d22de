/**
 * An Anthropic Messages API on loopback for the real Claude Code (`ANTHROPIC_BASE_URL`). Every
 * request is recorded. A turn that offers tools is answered by the test's scripted model, chosen
 * by how many tool calls the conversation already holds (so a retried request gets the same
 * answer); Claude Code's side questions (no tools: titles, summaries) get a short text. Answers
 * stream as the real API streams them (message_start … message_stop), or come whole without
 * `stream`.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../src/core/loopback.js';

export interface ApiTool {
  name: string;
  description?: string;
  input_schema?: unknown;
}

export interface ContentBlock {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
}

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface MessagesRequest {
  path: string;
  model?: string;
  stream?: boolean;
  tools?: ApiTool[];
  messages: ApiMessage[];
}

/** What the model says next: call a tool, or answer. */
export type ModelTurn = { tool: string; input: Record<string, unknown> } | { text: string };

/** The turn for step `step` (0 first; 1 after the first tool result …); `last` is the latest tool result's text. */
export type Script = (step: number, last: string | undefined, req: MessagesRequest) => ModelTurn | Promise<ModelTurn>;

function blocks(m: ApiMessage): ContentBlock[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}

/** A tool_result's text, as Claude Code sent it (a string or text blocks). */
export function resultText(b: ContentBlock): string {
  if (typeof b.content === 'string') return b.content;
  return (b.content ?? []).map((c) => c.text ?? '').join('');
}

/** Every tool_result block the request carries, oldest first. */
export function toolResults(req: MessagesRequest): ContentBlock[] {
  return req.messages.flatMap((m) => (m.role === 'user' ? blocks(m).filter((b) => b.type === 'tool_result') : []));
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class FakeAnthropicApi {
  readonly requests: MessagesRequest[] = [];
  private waiters: { test: (r: MessagesRequest) => boolean; resolve: (r: MessagesRequest) => void }[] = [];
  private ids = 0;

  private constructor(
    private readonly http: Server,
    readonly url: string,
    private readonly script: Script,
  ) {}

  static async start(script: Script): Promise<FakeAnthropicApi> {
    const http = createServer();
    const port = await listenOnLoopback(http);
    const api = new FakeAnthropicApi(http, `http://127.0.0.1:${port}`, script);
    http.on('request', (req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method !== 'POST' || !path.startsWith('/v1/messages')) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
          return;
        }
        let body: Omit<MessagesRequest, 'path'>;
        try {
          body = JSON.parse(raw) as Omit<MessagesRequest, 'path'>;
        } catch {
          res.writeHead(400).end();
          return;
        }
        if (path === '/v1/messages/count_tokens') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: 100 }));
          return;
        }
        const r: MessagesRequest = { ...body, messages: body.messages ?? [], path };
        api.requests.push(r);
        void api.answer(r, res);
        for (const w of [...api.waiters]) {
          if (!w.test(r)) continue;
          api.waiters.splice(api.waiters.indexOf(w), 1);
          w.resolve(r);
        }
      });
    });
    return api;
  }

  /** Requests that offered the model tools: the conversation with the scripted model. */
  get turns(): MessagesRequest[] {
    return this.requests.filter((r) => (r.tools?.length ?? 0) > 0);
  }

  /** The first recorded request (or a later one) that passes `test`. */
  next(test: (r: MessagesRequest) => boolean, what: string, timeoutMs = 60_000): Promise<MessagesRequest> {
    const seen = this.requests.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  /** A script may take its time (an async step, e.g. a sign-in the "user" completes): Claude Code waits. */
  private async answer(r: MessagesRequest, res: ServerResponse): Promise<void> {
    let turn: ModelTurn;
    if ((r.tools?.length ?? 0) === 0) turn = { text: 'ok' };
    else {
      const results = toolResults(r);
      const last = results.at(-1);
      try {
        turn = await this.script(results.length, last && resultText(last), r);
      } catch (e) {
        // A script that cannot go on says why, so the test's assertion on the final text shows it.
        turn = { text: `script failed: ${(e as Error).message}` };
      }
    }
    const id = `msg_${++this.ids}`;
    const content: ContentBlock[] =
      'tool' in turn
        ? [{ type: 'tool_use', id: `toolu_${this.ids}`, name: turn.tool, input: turn.input }]
        : [{ type: 'text', text: turn.text }];
    const stopReason = 'tool' in turn ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: 100, output_tokens: 10 };
    const model = r.model ?? 'claude-test';
    if (!r.stream) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model,
          content,
          stop_reason: stopReason,
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    let out = sse('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    });
    const block = content[0]!;
    if (block.type === 'tool_use') {
      out += sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    } else {
      out += sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: block.text },
      });
    }
    out += sse('content_block_stop', { type: 'content_block_stop', index: 0 });
    out += sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 10 },
    });
    out += sse('message_stop', { type: 'message_stop' });
    res.end(out);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.closeAllConnections();
      this.http.close(() => resolve());
    });
  }
}
