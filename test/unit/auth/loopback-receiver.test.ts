import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from '../../../src/core/auth/errors.js';
import { createLoopbackReceiver, REDIRECT_TIMEOUT_MS } from '../../../src/core/auth/loopback-receiver.js';
import { FakeClock } from '../../support/fakes.js';

const isCode = (code: string) => (err: unknown) => err instanceof AuthError && err.code === code;

async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

test('the code comes back when state matches; the browser gets the close-this-tab page; the listener stops', async () => {
  const session = await createLoopbackReceiver().start();
  assert.match(session.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  const waiting = session.waitForCode('s-123');
  const page = await get(`${session.redirectUrl}?code=the-code&state=s-123`);
  assert.equal(await waiting, 'the-code');
  assert.equal(page.status, 200);
  assert.match(page.body, /close this tab/);
  await session.close();
  await assert.rejects(fetch(session.redirectUrl), 'nothing listens any more');
});

test('a redirect with another state (or none) gets an error page and the sign-in keeps waiting for ours', async () => {
  const session = await createLoopbackReceiver().start();
  try {
    const waiting = session.waitForCode('expected');
    const page = await get(`${session.redirectUrl}?code=stolen&state=other`);
    assert.equal(page.status, 400);
    assert.doesNotMatch(page.body, /stolen/);
    assert.equal((await get(`${session.redirectUrl}?code=c`)).status, 400, 'no state at all: refused the same way');
    assert.equal(
      (await get(`${session.redirectUrl}?error=access_denied&state=other`)).status,
      400,
      'a forged error does not end it either',
    );
    assert.equal((await get(`${session.redirectUrl}?code=real&state=expected`)).status, 200);
    assert.equal(await waiting, 'real');
  } finally {
    await session.close();
  }
});

test('a redirect that arrives before waitForCode is still checked', async () => {
  const session = await createLoopbackReceiver().start();
  const page = fetch(`${session.redirectUrl}?code=early&state=st`).then((r) => r.status);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await session.waitForCode('st'), 'early');
  assert.equal(await page, 200);
  await session.close();
});

test('denied consent is reported as denied with the server description', async () => {
  const session = await createLoopbackReceiver().start();
  const waiting = session.waitForCode('st');
  const outcome = assert.rejects(
    waiting,
    (err: unknown) => isCode('denied')(err) && /denied.*user said no/i.test((err as Error).message),
  );
  const page = await get(`${session.redirectUrl}?error=access_denied&error_description=user%20said%20no&state=st`);
  await outcome;
  assert.equal(page.status, 400);
  await session.close();
});

test('no answer within 5 minutes is a timeout; an abort is a cancellation; other paths are 404', async () => {
  const clock = new FakeClock();
  const session = await createLoopbackReceiver({ clock }).start();
  assert.equal((await get(session.redirectUrl.replace('/callback', '/favicon.ico'))).status, 404);
  const waiting = session.waitForCode('st');
  const outcome = assert.rejects(waiting, isCode('timeout'));
  clock.advance(REDIRECT_TIMEOUT_MS - 1);
  clock.advance(1);
  await outcome;
  await session.close();

  const s2 = await createLoopbackReceiver({ clock }).start();
  const ac = new AbortController();
  const w2 = assert.rejects(s2.waitForCode('st', ac.signal), isCode('cancelled'));
  ac.abort();
  await w2;
  await s2.close();
});

test('a configured callback port is used exactly, and a busy one is a clear error', async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const port = (blocker.address() as AddressInfo).port;
  try {
    await assert.rejects(
      createLoopbackReceiver().start({ port }),
      (err: unknown) => isCode('callback-port')(err) && /in use/.test((err as Error).message),
    );
    // A merely preferred port falls back to any free one.
    const s = await createLoopbackReceiver().start({ preferredPort: port });
    assert.notEqual(new URL(s.redirectUrl).port, String(port));
    await s.close();
  } finally {
    await new Promise<void>((r) => blocker.close(() => r()));
  }
  const s = await createLoopbackReceiver().start({ port });
  assert.equal(new URL(s.redirectUrl).port, String(port));
  await s.close();
});
