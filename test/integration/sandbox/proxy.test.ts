/**
 * The shared sandbox proxy tells its clients apart by the per-spawn user name in their proxy
 * credentials: a client it did not admit, or one already released, is refused even with the
 * proxy's password, and each client gets its own rules.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { SandboxProxy } from '../../../src/core/sandbox/proxy.js';

let target: Server;
let targetPort: number;
let proxy: SandboxProxy;

before(async () => {
  target = createServer((_req, res) => res.end('target answered'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetPort = (target.address() as AddressInfo).port;
  proxy = await SandboxProxy.start();
});
after(async () => {
  await proxy.close();
  target.close();
});

/** The status line of a CONNECT to the target through the proxy with `proxyUrl`'s credentials. */
function connectStatus(proxyUrl: string): Promise<string> {
  const u = new URL(proxyUrl);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  return new Promise((resolve, reject) => {
    const s = connect(proxy.port, '127.0.0.1', () => {
      s.write(
        `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: 127.0.0.1:${targetPort}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
      );
    });
    s.setTimeout(20_000, () => s.destroy(new Error('no answer from the proxy within 20 s')));
    s.once('data', (d) => {
      resolve(String(d).split('\r\n')[0]);
      s.destroy();
    });
    s.once('error', reject);
  });
}

const rules = (allowed: string[]) => ({ allowedDomains: allowed, deniedDomains: [] });

test('each admitted client gets its own rules; a made-up or released name is refused', async () => {
  const refused: string[] = [];
  const a = proxy.admit(rules(['127.0.0.1']), { http: proxy.port, socks: proxy.port }, (t) => refused.push(`a ${t}`));
  const b = proxy.admit(rules([]), { http: proxy.port, socks: proxy.port }, (t) => refused.push(`b ${t}`));
  assert.match(a.env.HTTP_PROXY, /^http:\/\/srt\.[^:]+:[0-9a-f]+@localhost:\d+$/);
  assert.notEqual(new URL(a.env.HTTP_PROXY).username, new URL(b.env.HTTP_PROXY).username);

  assert.match(await connectStatus(a.env.HTTP_PROXY), / 200 /);
  assert.match(await connectStatus(b.env.HTTP_PROXY), / 403 /);
  assert.deepEqual(refused, [`b 127.0.0.1:${targetPort}`]);

  // The proxy's password with a user name it never handed out: nobody's rules apply.
  const forged = new URL(a.env.HTTP_PROXY);
  forged.username = 'srt.' + 'A'.repeat(24);
  assert.match(await connectStatus(forged.href), / 403 /);

  a.release();
  assert.match(await connectStatus(a.env.HTTP_PROXY), / 403 /);
  b.release();
  assert.equal(proxy.clientCount, 0);
});

test('a malformed host (CONNECT *:443) is refused and reported as nothing to allow', async () => {
  const refused: { target: string; offer: boolean }[] = [];
  const c = proxy.admit(rules(['*']), { http: proxy.port, socks: proxy.port }, (target, _r, offer) =>
    refused.push({ target, offer }),
  );
  const u = new URL(c.env.HTTP_PROXY);
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  const status = await new Promise<string>((resolve, reject) => {
    const s = connect(proxy.port, '127.0.0.1', () =>
      s.write(`CONNECT *:443 HTTP/1.1\r\nHost: *:443\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`),
    );
    s.setTimeout(20_000, () => s.destroy(new Error('no answer from the proxy within 20 s')));
    s.once('data', (d) => (resolve(String(d).split('\r\n')[0]), s.destroy()));
    s.once('error', reject);
  });
  c.release();
  assert.doesNotMatch(status, / 200 /);
  assert.deepEqual(refused, [{ target: '"*":443', offer: false }]);
});
