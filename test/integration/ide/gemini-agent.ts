/** A Gemini CLI-like client for plain-Node tests: reads the discovery file, connects as the CLI does (SDK client, bearer token), keeps the notifications. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { GeminiDiscoveryContent } from '../../../src/core/ide/gemini/discovery.js';

export interface FoundDiscovery {
  file: string;
  name: string;
  mode: number;
  content: GeminiDiscoveryContent;
}

export function readDiscovery(dir: string): FoundDiscovery[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((name) => {
      const file = join(dir, name);
      return {
        file,
        name,
        mode: statSync(file).mode & 0o777,
        content: JSON.parse(readFileSync(file, 'utf8')) as GeminiDiscoveryContent,
      };
    });
}

export interface Notice {
  method: string;
  params: Record<string, unknown>;
}

export class GeminiAgent {
  readonly notices: Notice[] = [];
  private waiters: { method: string; test: (p: Record<string, unknown>) => boolean; resolve: (n: Notice) => void }[] =
    [];

  private constructor(readonly client: Client) {
    client.fallbackNotificationHandler = async (n) => {
      const notice = { method: n.method, params: (n.params ?? {}) as Record<string, unknown> };
      this.notices.push(notice);
      for (const w of [...this.waiters]) {
        if (w.method !== notice.method || !w.test(notice.params)) continue;
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(notice);
      }
    };
  }

  /** `listTools: false` stops after the handshake and the event stream, before what Gemini CLI does next. */
  static async connect(port: number, token: string, opts: { listTools?: boolean } = {}): Promise<GeminiAgent> {
    const client = new Client({ name: 'gemini-like-test-client', version: '0.0.1' });
    const agent = new GeminiAgent(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    // As Gemini CLI does next (discoverTools); only then does the server count it as connected.
    if (opts.listTools !== false) await client.listTools();
    return agent;
  }

  /** The next notification of `method` whose params pass `test` (one already received counts). */
  next(
    method: string,
    test: (p: Record<string, unknown>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<Notice> {
    const seen = this.notices.find((n) => n.method === method && test(n.params));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${method} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        method,
        test,
        resolve: (n) => {
          clearTimeout(timer);
          resolve(n);
        },
      });
    });
  }

  async call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ content: { type: string; text?: string }[]; isError?: boolean }> {
    return (await this.client.callTool({ name, arguments: args })) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
