/**
 * The era matrix: what an agent of either protocol era must see through any front of the gateway
 * (`serve` over stdio, the HTTP listener), written once. A 2025-11-25 agent hears list changes as
 * notifications on its session; a 2026-07-28 agent (the SDK v2 client pinned to the modern
 * revision) on a `subscriptions/listen` stream, which each scenario opens for it. The files that
 * run the matrix: test/integration/gateway/{serve,serve-eras,http,eras}.test.ts.
 */
import assert from 'node:assert/strict';
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { pollUntil } from './wait.js';

export type Era = '2025-11-25' | '2026-07-28';

/** An agent of `era` (not connected): a modern one speaks 2026-07-28 only. */
export function eraClient(era: Era, name: string, capabilities: ClientCapabilities = {}): Client {
  return new Client(
    { name, version: '1.0.0' },
    era === '2026-07-28' ? { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } } : { capabilities },
  );
}

/** The era `client` negotiated (a legacy agent may negotiate any revision before 2026-07-28). */
export function eraOf(client: Client): Era {
  return client.getNegotiatedProtocolVersion() === '2026-07-28' ? '2026-07-28' : '2025-11-25';
}

function textOf(r: unknown): string {
  const content = (r as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('');
}

/**
 * Progress from the server reaches the agent. The SDK's Client dispatches notifications a tick
 * after they arrive and drops a progress handler when the response arrives, so a progress sent
 * right before the result (the last step) may be lost at each hop; the earlier ones must all
 * arrive, in order. Returns the call's text.
 */
export async function progressReaches(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const seen: number[] = [];
  const r = await client.callTool({ name, arguments: args }, { onprogress: (p) => seen.push(p.progress) });
  assert.deepEqual(seen.slice(0, 2), [1, 2]);
  return textOf(r);
}

/** The agent's cancellation of a hanging call reaches the server (`heard` reads the server's record). */
export async function cancelReaches(client: Client, name: string, heard: () => boolean): Promise<void> {
  const ac = new AbortController();
  const call = client.callTool({ name, arguments: {} }, { signal: ac.signal });
  setTimeout(() => ac.abort(), 300);
  await assert.rejects(call);
  await pollUntil(heard, 10_000);
  assert.ok(heard(), 'the server heard notifications/cancelled');
}

/**
 * Runs `body` while the agent hears what `filter` names: on its session for a legacy agent
 * (resources by `resources/subscribe`), on a listen stream for a modern one.
 */
async function listening<T>(
  client: Client,
  filter: { toolsListChanged?: boolean; resourceSubscriptions?: string[] },
  body: () => Promise<T>,
): Promise<T> {
  const uris = filter.resourceSubscriptions ?? [];
  let close: () => Promise<unknown>;
  if (eraOf(client) === '2026-07-28') {
    const sub = await client.listen(filter);
    close = () => sub.close();
  } else {
    for (const uri of uris) await client.subscribeResource({ uri });
    close = () => Promise.all(uris.map((uri) => client.unsubscribeResource({ uri })));
  }
  try {
    return await body();
  } finally {
    await close();
  }
}

/**
 * `change` makes the agent hear `notifications/tools/list_changed`, and its tool names come to
 * satisfy `until` (a notification may come for one server's connect while another is still
 * starting, so the names are read again at each one). Returns those names.
 */
export function toolsChangeHeard(
  client: Client,
  change: () => Promise<void>,
  until: (names: string[]) => boolean,
): Promise<string[]> {
  let heard: () => void = () => {};
  client.setNotificationHandler('notifications/tools/list_changed', () => heard());
  return listening(client, { toolsListChanged: true }, async () => {
    const first = new Promise<void>((resolve) => (heard = resolve));
    await change();
    await first;
    let names = (await client.listTools()).tools.map((t) => t.name);
    while (!until(names)) {
      await new Promise<void>((resolve) => (heard = resolve));
      names = (await client.listTools()).tools.map((t) => t.name);
    }
    return names;
  });
}

/**
 * Updates of a resource the agent listens to reach it under the agent's URI (the gateway's, not
 * the server's); `toggle` turns the server's updates on, and off again afterwards.
 */
export async function resourceUpdatesHeard(client: Client, uri: string, toggle: () => Promise<unknown>): Promise<void> {
  const updates: string[] = [];
  const heard = new Promise<void>((resolve) =>
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
      resolve();
    }),
  );
  await listening(client, { resourceSubscriptions: [uri] }, async () => {
    await toggle();
    try {
      await heard;
      assert.ok(
        updates.every((u) => u === uri),
        updates.join(', '),
      );
    } finally {
      await toggle();
    }
  });
}

/**
 * server-everything's questions mid-call reach the agent and its answers go back: elicitation
 * (the agent answers the name Ada) and sampling (the agent's model `model` answers "sampled: …").
 */
export async function everythingAsksTheAgent(client: Client, model: string): Promise<void> {
  const r = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} });
  assert.match(textOf(r), /Ada/);
  const s = await client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku' } });
  assert.match(textOf(s), /sampled: .*a haiku/);
  assert.match(textOf(s), new RegExp(model));
}
