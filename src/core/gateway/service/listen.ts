/**
 * Where the team gateway listens, and the rule for leaving loopback: an address other than a
 * loopback one needs `allowRemote` (the operator saying so) and either a certificate and key (TLS
 * here) or `insecureHttp` (TLS ends at a proxy or balancer in front). Tokens are bearer tokens:
 * on plain HTTP across a network anyone on the path can replay them.
 */
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ListenOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a port from the OS. */
  port?: number;
  tls?: { certFile: string; keyFile: string };
  allowRemote?: boolean;
  insecureHttp?: boolean;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** Undefined when `o` may be listened on; else what is missing, for a usage error. */
export function listenRefusal(o: ListenOptions): string | undefined {
  const host = o.host ?? '127.0.0.1';
  if (isLoopbackHost(host)) return undefined;
  if (!o.allowRemote) return `--host ${host} is not a loopback address: add --allow-remote to serve other machines`;
  if (!o.tls && !o.insecureHttp)
    return `--host ${host}: serving other machines needs --tls-cert and --tls-key, or --insecure-http when TLS ends at a proxy in front`;
  return undefined;
}

export interface Listening {
  server: Server;
  /** The scheme, address and port agents reach it on, e.g. `https://127.0.0.1:8443`. */
  origin: string;
}

export async function listen(o: ListenOptions, handler: RequestListener): Promise<Listening> {
  const refusal = listenRefusal(o);
  if (refusal) throw new Error(refusal);
  const server = o.tls
    ? // A TLS handshake may take 10 s, not Node's 120: a socket that never finishes one holds a connection.
      createHttpsServer(
        { cert: readFileSync(o.tls.certFile), key: readFileSync(o.tls.keyFile), handshakeTimeout: 10_000 },
        handler,
      )
    : createHttpServer(handler);
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const shown = address.includes(':') ? `[${address}]` : address;
  return { server, origin: `${o.tls ? 'https' : 'http'}://${shown}:${port}` };
}
