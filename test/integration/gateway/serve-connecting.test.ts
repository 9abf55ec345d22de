/**
 * `mcp-host serve` while its servers connect: one that never answers `initialize` does not hold
 * the gateway. The agent's connect resolves while that server is still connecting, the servers
 * that did connect are listed, a late one arrives with `list_changed`, and the instructions name
 * who is still connecting.
 * Both eras: `initialize` (2025-11-25) and `server/discover` (2026-07-28).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { alive, createHarness, ROOT, type Harness } from '../cli/harness.js';
import { serverScript } from '../../support/fixture-servers.js';
import { poll, withDeadline } from '../../support/wait.js';
import { serveTransport } from './helpers.js';

const STDIO = serverScript(join(ROOT, 'test', 'fixtures', 'servers', 'stdio-server.mjs'));

let h: Harness;
let ws: string;
let hangRecord: string;
const clients: Client[] = [];

function fixture(name: string, ...extra: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [STDIO, '--name', name, ...extra] };
}

/**
 * The hanging server is still being connected: started and alive (serve may answer before it has
 * even spawned, so its start is awaited), never ready, and its process alive (the host stops it when
 * its connect times out).
 */
async function assertHangConnecting(seenBefore: number): Promise<void> {
  const started = await poll(
    'the hanging server started',
    30_000,
    () => {
      const pids = recorded(hangRecord)
        .filter((l) => l.startsWith('start '))
        .map((l) => Number(l.split(' ')[1]));
      // This serve's own hanging server: a start more than before it was launched, and alive (a
      // short-lived era probe of the same command may have started and ended first).
      const own = pids.slice(seenBefore);
      return own.some((pid) => alive(pid)) ? own : undefined;
    },
    50,
  );
  assert.ok(!recorded(hangRecord).some((l) => l.startsWith('ready ')), 'the hanging server never became ready');
  assert.ok(
    started.some((pid) => alive(pid)),
    'the hanging server is still being connected',
  );
}

const starts = (): number => recorded(hangRecord).filter((l) => l.startsWith('start ')).length;

/** Lines of a fixture's record file ("start|ready pid ms"), none before it exists. */
function recorded(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

before(async () => {
  h = await createHarness();
  hangRecord = join(h.dir, 'hang.record');
  ws = await h.workspace('serve-connecting', {
    good: fixture('good'),
    // Connects a few seconds after serve answers: its tools come with list_changed.
    late: fixture('late', '--delay', '6000'),
    // Never answers initialize while the test runs (the connect timeout is 30 s).
    hang: fixture('hang', '--delay', '600000', '--record', hangRecord),
  });
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await h?.dispose();
});

async function connect(modern: boolean, onToolsChanged: () => void): Promise<Client> {
  const client = new Client(
    { name: 'serve-connecting-test', version: '1.0.0' },
    { capabilities: {}, ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) },
  );
  client.setNotificationHandler('notifications/tools/list_changed', () => onToolsChanged());
  clients.push(client);
  // Each test's serve is the folder's only session (the one before it closed): with no grace
  // period its shared gateway ends with it, and the next test's serve starts its servers afresh.
  await client.connect(serveTransport(h, ws, undefined, { MCP_HOST_SERVE_GRACE_MS: '0' }));
  return client;
}

/** Lists tools until `pred` holds, relisting on each list_changed; fails at the deadline. */
async function toolsUntil(
  client: Client,
  changed: { next: () => Promise<void> },
  pred: (names: string[]) => boolean,
  what: string,
): Promise<string[]> {
  return withDeadline(
    (async () => {
      for (;;) {
        const next = changed.next();
        const names = (await client.listTools()).tools.map((t) => t.name);
        if (pred(names)) return names;
        await next;
      }
    })(),
    what,
    60_000,
  );
}

/** A list_changed signal that can be awaited again and again. */
function changes(): { fire: () => void; next: () => Promise<void> } {
  let resolve: () => void = () => {};
  let pending = new Promise<void>((r) => (resolve = r));
  return {
    fire: () => {
      resolve();
      pending = new Promise<void>((r) => (resolve = r));
    },
    next: () => pending,
  };
}

/** What serve says about itself and about who is still connecting (what servers connected say: instructions.test.ts). */
function assertInstructions(text: string): void {
  assert.match(text, /mcp-host serve runs/);
  assert.doesNotMatch(text, /connected in the editor/);
  assert.match(text, /Still connecting: [^\n]*\bhang\b/);
}

describe('mcp-host serve with a server that never answers', { timeout: 180_000 }, () => {
  test('2025-11-25: initialize is answered while it connects; tools arrive with list_changed; instructions say so', async () => {
    const changed = changes();
    const before = starts();
    const client = await connect(false, changed.fire);
    await assertHangConnecting(before);
    const instructions = client.getInstructions() ?? '';
    assertInstructions(instructions);
    const first = await toolsUntil(client, changed, (n) => n.includes('good__echo'), 'good’s tools listed');
    assert.ok(!first.some((n) => n.startsWith('hang__')));
    if (/Still connecting: [^\n]*\blate\b/.test(instructions)) {
      // Late was connecting when the agent was answered: its tools come with a list_changed.
      await toolsUntil(client, changed, (n) => n.includes('late__echo'), 'late’s tools after list_changed');
    }
    await client.close();
  });

  test('2026-07-28: server/discover is answered while it connects, with the same instructions', async () => {
    const changed = changes();
    const before = starts();
    const client = await connect(true, changed.fire);
    await assertHangConnecting(before);
    assertInstructions(client.getInstructions() ?? '');
    const sub = await client.listen({ toolsListChanged: true });
    try {
      const names = await toolsUntil(client, changed, (n) => n.includes('good__echo'), 'good’s tools listed');
      assert.ok(!names.some((n) => n.startsWith('hang__')));
    } finally {
      await sub.close();
    }
  });
});
