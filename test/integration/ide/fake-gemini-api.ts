/**
 * A Gemini API on loopback for the real Gemini CLI (`GOOGLE_GEMINI_BASE_URL`): every request is
 * recorded; streamed turns are answered by the test's `reply`, everything else (token counts, the
 * CLI's small JSON side questions) with a neutral answer.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '../../../src/core/loopback.js';

export type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface ApiRequest {
  path: string;
  body: Record<string, unknown>;
  /** The request's text as sent, for looking for what the CLI put in it. */
  raw: string;
}

export class FakeGeminiApi {
  readonly requests: ApiRequest[] = [];
  private waiters: { test: (r: ApiRequest) => boolean; resolve: (r: ApiRequest) => void }[] = [];

  private constructor(
    private readonly http: Server,
    readonly url: string,
    private readonly reply: (turn: ApiRequest, index: number) => Part[],
  ) {}

  static async start(reply: (turn: ApiRequest, index: number) => Part[]): Promise<FakeGeminiApi> {
    const http = createServer();
    const port = await listenOnLoopback(http);
    const api = new FakeGeminiApi(http, `http://127.0.0.1:${port}`, reply);
    let streamed = 0;
    http.on('request', (req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // GET requests and the like.
        }
        const r: ApiRequest = { path: req.url ?? '', body, raw };
        api.requests.push(r);
        for (const w of [...api.waiters]) {
          if (!w.test(r)) continue;
          api.waiters.splice(api.waiters.indexOf(w), 1);
          w.resolve(r);
        }
        const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
        if (r.path.includes(':streamGenerateContent')) {
          const parts = api.reply(r, streamed++);
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          const chunk = {
            candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
            usageMetadata: usage,
          };
          res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        } else if (r.path.includes(':countTokens')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ totalTokens: 10 }));
        } else if (r.path.includes(':generateContent')) {
          // The CLI's side questions (next speaker, routing) want JSON; an answer that says "the user speaks next" ends a turn.
          const text = JSON.stringify({ reasoning: 'fake', next_speaker: 'user', model_choice: 'flash' });
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(
            JSON.stringify({
              candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
              usageMetadata: usage,
            }),
          );
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{}');
        }
      });
    });
    return api;
  }

  /** The first request (seen or to come) that passes `test`. */
  next(test: (r: ApiRequest) => boolean, timeoutMs = 60_000): Promise<ApiRequest> {
    const seen = this.requests.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such model API request within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}

/** The editor context as Gemini CLI put it in its first model request. */
export function editorContext(r: ApiRequest): {
  activeFile?: { path: string; cursor?: unknown; selectedText?: string };
} {
  const texts = (r.body.contents as { parts: { text?: string }[] }[]).flatMap((c) => c.parts.map((p) => p.text ?? ''));
  const m = /Here is the user's editor context as a JSON object[^`]*```json\n([\s\S]*?)\n```/.exec(texts.join('\n'));
  assert.ok(m, 'the first model request carries the editor context');
  return JSON.parse(m[1]!) as { activeFile?: { path: string; cursor?: unknown; selectedText?: string } };
}
