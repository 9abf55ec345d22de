/**
 * An OpenAI Responses API (`POST /v1/responses`, streamed) on loopback for the real Codex CLI (a
 * `model_providers` entry with `wire_api = "responses"`) and Copilot CLI (its bring-your-own-model
 * mode, `COPILOT_PROVIDER_WIRE_API=responses`). Every request is recorded. Each turn is answered by
 * the test's scripted model, chosen by how many tool results the conversation already holds (so a
 * retried request gets the same answer). Answers stream as the real API streams them: Copilot reads
 * them through the OpenAI SDK, which builds the final response from `response.created`, the items'
 * events and `response.completed`, so every event carries the whole shape; Codex reads the items.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../src/core/loopback.js';

export interface ResponsesTool {
  type: string;
  name?: string;
  description?: string;
  /** Codex groups an MCP server's tools in one `namespace` tool (`mcp__<server key>`). */
  tools?: ResponsesTool[];
}

export interface InputItem {
  type?: string;
  role?: string;
  name?: string;
  namespace?: string;
  call_id?: string;
  arguments?: string;
  /** A function_call_output's output: a string (Copilot) or input_text parts (Codex). */
  output?: string | { type: string; text?: string }[];
  content?: unknown;
}

export interface ResponsesRequest {
  path: string;
  model?: string;
  stream?: boolean;
  tools?: ResponsesTool[];
  input: InputItem[];
}

/** What the model says next: call a tool (in Codex's namespace when given), or answer. */
export type ModelTurn = { tool: string; namespace?: string; input: Record<string, unknown> } | { text: string };

/** The turn for step `step` (0 first; 1 after the first tool result …); `last` is the latest tool result's text. */
export type Script = (step: number, last: string | undefined, req: ResponsesRequest) => ModelTurn | Promise<ModelTurn>;

/** A function_call_output's text, as the agent sent it. */
export function outputText(item: InputItem): string {
  if (typeof item.output === 'string') return item.output;
  return (item.output ?? []).map((p) => p.text ?? '').join('\n');
}

/** Every tool result the request carries, oldest first. */
export function toolOutputs(req: ResponsesRequest): string[] {
  return req.input.filter((i) => i.type === 'function_call_output').map(outputText);
}

/** The function tools a request offers, a namespace's tools as `<namespace>.<name>`. */
export function offeredTools(req: ResponsesRequest): string[] {
  return (req.tools ?? []).flatMap((t) =>
    t.type === 'namespace' ? (t.tools ?? []).map((x) => `${t.name}.${x.name}`) : t.name ? [t.name] : [],
  );
}

function sse(res: ServerResponse, seq: { n: number }, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq.n++, ...data })}\n\n`);
}

export class FakeResponsesApi {
  readonly requests: ResponsesRequest[] = [];
  private ids = 0;

  private constructor(
    private readonly http: Server,
    readonly url: string,
    private readonly script: Script,
  ) {}

  /** `url` is the API's base (`…/v1`), as both agents take it. */
  static async start(script: Script): Promise<FakeResponsesApi> {
    const http = createServer();
    const port = await listenOnLoopback(http);
    const api = new FakeResponsesApi(http, `http://127.0.0.1:${port}/v1`, script);
    http.on('request', (req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method !== 'POST' || path !== '/v1/responses') {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'not_found', message: path } }));
          return;
        }
        let body: Omit<ResponsesRequest, 'path'>;
        try {
          body = JSON.parse(raw) as Omit<ResponsesRequest, 'path'>;
        } catch {
          res.writeHead(400).end();
          return;
        }
        const r: ResponsesRequest = { ...body, input: Array.isArray(body.input) ? body.input : [], path };
        api.requests.push(r);
        void api.answer(r, res);
      });
    });
    return api;
  }

  /** Requests that offered the model tools: the conversation with the scripted model. */
  get turns(): ResponsesRequest[] {
    return this.requests.filter((r) => (r.tools?.length ?? 0) > 0);
  }

  private async answer(r: ResponsesRequest, res: ServerResponse): Promise<void> {
    const outputs = toolOutputs(r);
    let turn: ModelTurn;
    try {
      turn = await this.script(outputs.length, outputs.at(-1), r);
    } catch (e) {
      // A script that cannot go on says why, so the test's assertion on the final text shows it.
      turn = { text: `script failed: ${(e as Error).message}` };
    }
    const n = ++this.ids;
    const seq = { n: 0 };
    const base = {
      id: `resp_${n}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model: r.model ?? 'gpt-test',
      status: 'in_progress',
      output: [] as unknown[],
      usage: null,
      error: null,
      incomplete_details: null,
      parallel_tool_calls: false,
      tool_choice: 'auto',
      tools: [],
    };
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    sse(res, seq, 'response.created', { response: base });
    const item = 'tool' in turn ? this.call(res, seq, n, turn) : this.message(res, seq, n, turn.text);
    sse(res, seq, 'response.output_item.done', { output_index: 0, item });
    sse(res, seq, 'response.completed', {
      response: {
        ...base,
        status: 'completed',
        output: [item],
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 110,
        },
      },
    });
    res.end();
  }

  private call(
    res: ServerResponse,
    seq: { n: number },
    n: number,
    turn: { tool: string; namespace?: string; input: Record<string, unknown> },
  ): Record<string, unknown> {
    const args = JSON.stringify(turn.input);
    const item = {
      type: 'function_call',
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: turn.tool,
      ...(turn.namespace ? { namespace: turn.namespace } : {}),
      arguments: args,
      status: 'completed',
    };
    sse(res, seq, 'response.output_item.added', {
      output_index: 0,
      item: { ...item, arguments: '', status: 'in_progress' },
    });
    sse(res, seq, 'response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: args });
    sse(res, seq, 'response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: args });
    return item;
  }

  private message(res: ServerResponse, seq: { n: number }, n: number, text: string): Record<string, unknown> {
    const id = `msg_${n}`;
    const part = { type: 'output_text', text, annotations: [] };
    const at = { output_index: 0, item_id: id, content_index: 0 };
    sse(res, seq, 'response.output_item.added', {
      output_index: 0,
      item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] },
    });
    sse(res, seq, 'response.content_part.added', { ...at, part: { ...part, text: '' } });
    sse(res, seq, 'response.output_text.delta', { ...at, delta: text });
    sse(res, seq, 'response.output_text.done', { ...at, text });
    sse(res, seq, 'response.content_part.done', { ...at, part });
    return { type: 'message', id, role: 'assistant', status: 'completed', content: [part] };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.closeAllConnections();
      this.http.close(() => resolve());
    });
  }
}
