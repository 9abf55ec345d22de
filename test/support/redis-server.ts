/**
 * A real `redis-server` for a test: on a free loopback port, no persistence (nothing written to
 * disk), ready when it answers PING, killed on `stop()`. Callers check `requireTool('redis-server',
 * 'apt-get install redis-server')` (system-tool.ts) first. Shared by the team gateway's cluster
 * tests and the load bench (branch `balancer`).
 */
import { spawn } from 'node:child_process';
import { createServer, connect, type AddressInfo } from 'node:net';

export interface RunningRedis {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Kills it (SIGKILL after 5 s of SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** A port the OS had free a moment ago: redis-server takes a port number, not 0. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, '127.0.0.1', resolve);
  });
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** One PING over a raw socket: `+PONG` once the server serves (not while it still loads). */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}

export async function startRedis(opts: { readyTimeoutMs?: number } = {}): Promise<RunningRedis> {
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 15_000);
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    proc.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    proc.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    let gone = false;
    void exited.then(() => (gone = true));
    const stop = async (): Promise<void> => {
      if (gone) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    };
    while (!gone && Date.now() < deadline) {
      if (await pings(port)) return { url: `redis://127.0.0.1:${port}`, port, stop };
      await new Promise((r) => setTimeout(r, 50));
    }
    await stop();
    // Another process took the port between freePort and the bind: once more, on another one.
    if (/Address already in use/i.test(output) && attempt < 3 && Date.now() < deadline) continue;
    throw new Error(`redis-server on port ${port} did not become ready: ${output.trim() || 'no output'}`);
  }
}
