/**
 * The gateway agents of the chaos run (chaos-agents.ts starts this process): SDK v2 clients over
 * Streamable HTTP, half negotiating 2026-07-28 and half on 2025-11-25, each call sent and answered
 * over IPC. Exits when told to close, after closing its clients.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FromChild, ToChild } from './chaos-agents.js';

function textOf(r: unknown): string {
  const content = (r as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

async function main(): Promise<void> {
  const clients: Client[] = [];
  const reply = (m: FromChild) => process.send?.(m);
  process.on('message', (m: ToChild) => {
    if (m.op === 'connect') {
      void (async () => {
        for (const a of m.agents) {
          const client = new Client(
            { name: a.name, version: '1.0.0' },
            a.era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
          );
          await client.connect(
            new StreamableHTTPClientTransport(new URL(m.url), {
              requestInit: { headers: { Authorization: `Bearer ${m.token}` } },
            }),
          );
          const got = client.getProtocolEra() ?? 'legacy';
          if (got !== a.era) throw new Error(`agent ${a.name} wanted the ${a.era} era and got ${got}`);
          clients.push(client);
        }
      })().then(
        () => reply({ op: 'ready' }),
        (err: unknown) => reply({ op: 'failed', message: String(err) }),
      );
    } else if (m.op === 'call') {
      const timeout = m.timeoutMs;
      clients[m.agent]!.callTool(
        { name: m.tool, arguments: { nonce: m.nonce } },
        { timeout, maxTotalTimeout: timeout },
      ).then(
        (r) => reply({ op: 'result', id: m.id, text: textOf(r), isError: r.isError === true }),
        (err: unknown) => reply({ op: 'error', id: m.id, message: String(err) }),
      );
    } else {
      void Promise.allSettled(clients.map((c) => c.close())).then(() => process.disconnect());
    }
  });
}

void main();
