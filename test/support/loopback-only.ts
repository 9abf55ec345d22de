/** Checks that a server's port answers on 127.0.0.1 and on no other address of this machine. */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/** True when a TCP connection to host:port is accepted within 10 s. */
export function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: 10_000 });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** Fails unless `port` accepts on 127.0.0.1 and refuses on ::1 and every other interface address. */
export async function assertLoopbackOnly(port: number): Promise<void> {
  assert.equal(await tcpConnects('127.0.0.1', port), true);
  const others = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.address !== '127.0.0.1')
    .map((a) => a!.address.split('%')[0]!);
  for (const addr of new Set(['::1', ...others])) {
    assert.equal(await tcpConnects(addr, port), false, `must not accept on ${addr}`);
  }
}
