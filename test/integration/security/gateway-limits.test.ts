/**
 * The gateway under a flood from this machine (issue 29, item 6): anyone local can open sockets
 * without the token, so sockets that have not authenticated are capped (the oldest evicted) and
 * dropped after a deadline, a real agent still gets in, and refusals are logged at a bounded rate.
 */
import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, test } from 'node:test';
import { PendingSockets } from '../../../src/core/connection-limits.js';
import { agent, askerDef, rawPost, startRig, type Rig } from '../gateway/helpers.js';

let rig: Rig | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await rig?.dispose();
  rig = undefined;
});

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

function silentSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
    sockets.push(s);
  });
}

test('140 silent sockets do not keep a real agent out: the oldest unauthenticated ones are evicted', async () => {
  rig = await startRig([askerDef()]);
  for (let i = 0; i < 140; i++) await silentSocket(rig.http.port);
  const client = await within(10_000, 'a real agent connecting', agent(rig));
  const tools = await client.listTools();
  assert.ok(tools.tools.some((t) => t.name === 'asker__ask'));
  await client.close();
  await rig.logger.nextLine(/gateway: dropped a connection: more than 32 connections waiting/);
});

test('a socket that never sends an authenticated request is closed at the deadline', async () => {
  rig = await startRig([], {}, undefined, { limits: { handshakeTimeoutMs: 200 } });
  const s = await silentSocket(rig.http.port);
  await within(5_000, 'the silent socket closed', new Promise<void>((resolve) => s.once('close', () => resolve())));
  // An agent that authenticates keeps its connection past the deadline: a silent socket opened
  // after it has been closed, so the agent's sockets have been through theirs.
  const client = await agent(rig);
  const later = await silentSocket(rig.http.port);
  await within(
    5_000,
    'the later silent socket closed',
    new Promise<void>((resolve) => later.once('close', () => resolve())),
  );
  await client.listTools();
  await client.close();
});

test('a request that came in time is served when the process stalled past the deadline', async () => {
  // The gateway's and the IDE server's limits, on a plain server: the first connection's handler
  // stalls the event loop past the deadline (as GC or a busy extension host does) before this
  // process's client has even written its request.
  const pending = new PendingSockets({ handshakeTimeoutMs: 200 }, () => {}, 'authenticated request');
  let stalled = false;
  const server = createServer((socket) => {
    pending.add(socket);
    socket.once('data', () => {
      pending.forget(socket);
      socket.end('served');
    });
    if (stalled) return;
    stalled = true;
    const until = Date.now() + 400;
    while (Date.now() < until);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const reply = await within(
      5_000,
      'the reply',
      new Promise<string>((resolve, reject) => {
        const s = connect((server.address() as AddressInfo).port, '127.0.0.1', () => s.write('request'));
        sockets.push(s);
        let got = '';
        s.on('data', (d: Buffer) => (got += d.toString()));
        s.on('error', reject);
        s.on('close', () => resolve(got));
      }),
    );
    assert.equal(reply, 'served');
  } finally {
    pending.dispose();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('refused requests are logged at a bounded rate', async () => {
  rig = await startRig([]);
  const port = rig.http.port;
  const statuses = await Promise.all(
    Array.from({ length: 200 }, () => rawPost(port, { Host: `127.0.0.1:${port}`, 'Content-Type': 'application/json' })),
  );
  assert.ok(statuses.every((s) => s === 401));
  const refused = rig.logger.lines.filter((l) => /gateway: refused/.test(l));
  assert.ok(refused.length <= 5, `${refused.length} refusal lines`);
});

test("a server's log lines go only to agents that used that server, not to every agent", async () => {
  rig = await startRig([askerDef()]);
  const caller = await agent(rig);
  const bystander = await agent(rig);
  const bystanderHeard: unknown[] = [];
  bystander.setNotificationHandler('notifications/message', (n) => void bystanderHeard.push(n.params));
  const heard = new Promise<unknown>((resolve) =>
    caller.setNotificationHandler('notifications/message', (n) => resolve(n.params.data)),
  );
  await caller.callTool({ name: 'asker__log', arguments: {} });
  assert.equal(await within(5_000, 'the caller hearing the log line', heard), 'careful now');
  // The line went to every recipient in one pass; a round trip on the bystander's own session
  // after the caller heard it means anything sent to it has arrived too.
  await bystander.ping();
  await bystander.listTools();
  assert.deepEqual(bystanderHeard, []);
  await caller.close();
  await bystander.close();
});
