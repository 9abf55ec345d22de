/**
 * Several team-gateway processes (`mcp-host serve --http`) behind a real balancer, as an operator
 * runs them (docs/team-gateway.md, "Several processes"): each process is the CLI binary with its own
 * home folder and the operator's --config file, and HAProxy runs `deploy/haproxy.cfg` itself, its
 * "${…}" placeholders filled from its environment. Used by balancer.test.ts and bench/balancer.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { poll } from '../../../support/poll.js';
import { gatewayPathEnv } from '../../../support/gateway-path.js';

/** The repository's deploy/ folder, from here or from a bundle of this file elsewhere (bench/.tmp). */
function findDeploy(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'deploy', 'haproxy.cfg'))) return join(dir, 'deploy');
    if (dirname(dir) === dir) throw new Error(`no deploy/haproxy.cfg above ${__dirname}`);
  }
}

export const DEPLOY = findDeploy();
/** The repository, found the same way. */
export const REPO = dirname(DEPLOY);

/** A port the OS has just handed out and taken back: for a process that must be told its port. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface GatewayProcess {
  name: string;
  /** `http://127.0.0.1:PORT`, the process itself (not the balancer). */
  origin: string;
  /** host:port, as the balancer's config names it. */
  address: string;
  proc: ChildProcess;
  stderr(): string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export interface GatewayOptions {
  /** The CLI binary (the harness's `h.cli`, the bench's build). */
  cli: string;
  name: string;
  /** A folder of the process's own (its HOME). */
  dir: string;
  /** The operator's config file: servers and the `"gateway"` object. */
  config: string;
  env?: Record<string, string>;
}

export async function startGateway(o: GatewayOptions): Promise<GatewayProcess> {
  mkdirSync(o.dir, { recursive: true });
  const proc = spawn(process.execPath, [o.cli, 'serve', '--http', '--port', '0', '--config', o.config], {
    cwd: o.dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: o.dir,
      MCP_HOST_BLOB_DIR: join(o.dir, 'blobs'),
      ...gatewayPathEnv(),
      ...o.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const [, url] = await poll(`${o.name} to say where it listens`, 60_000, async () => {
    if (proc.exitCode !== null) throw new Error(`${o.name} exited ${proc.exitCode}: ${stderr}`);
    return /listening on (\S+) \(resource/.exec(stderr) ?? undefined;
  });
  const origin = new URL(url!).origin;
  return { name: o.name, origin, address: new URL(url!).host, proc, stderr: () => stderr, exited };
}

/** The operator's config file of every process: the same servers, one resource (the balancer's URL). */
export function writeGatewayConfig(
  file: string,
  o: { issuer: string; resource: string; servers: Record<string, unknown>; drainSeconds?: number; extra?: object },
): string {
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: o.servers,
      gateway: {
        auth: { issuer: o.issuer, resource: o.resource, requiredScopes: ['mcp'] },
        drainSeconds: o.drainSeconds ?? 30,
        ...o.extra,
      },
    }),
  );
  return file;
}

export interface Balancer {
  /** Where agents connect: `http://127.0.0.1:PORT`. */
  origin: string;
  /** HAProxy's view of each process: `UP`, `DOWN`, `MAINT`… by server name (gw1…). */
  status(): Promise<Record<string, string>>;
  /** Resolves once every named server is in `state` (by HAProxy's own health checks). */
  until(state: 'UP' | 'DOWN', names: string[], timeoutMs?: number): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

/** HAProxy with deploy/haproxy.cfg in front of `gateways` (host:port each, gw1… in order; at most 3). */
export async function startHaproxy(o: { port: number; gateways: string[]; checkInterMs?: number }): Promise<Balancer> {
  const stats = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    MCP_LB_BIND: `127.0.0.1:${o.port}`,
    MCP_LB_STATS: `127.0.0.1:${stats}`,
    MCP_CHECK_INTER: `${o.checkInterMs ?? 200}ms`,
  };
  // The config names three servers; fewer processes leave the rest on a port nobody listens on (DOWN).
  for (let i = 0; i < 3; i++) env[`MCP_GW${i + 1}`] = o.gateways[i] ?? `127.0.0.1:${await freePort()}`;
  const proc = spawn('haproxy', ['-f', join(DEPLOY, 'haproxy.cfg'), '-db'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const status = async (): Promise<Record<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${stats}/stats;csv`)).text();
    const [head, ...rows] = csv.trim().split('\n');
    const cols = head!.replace(/^# /, '').split(',');
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((c) => cols.indexOf(c));
    const out: Record<string, string> = {};
    for (const r of rows.map((l) => l.split(','))) if (r[px!] === 'gateways') out[r[sv!]!] = r[st!]!;
    return out;
  };
  const names = o.gateways.map((_, i) => `gw${i + 1}`);
  const b: Balancer = {
    origin: `http://127.0.0.1:${o.port}`,
    status,
    async until(state, which, timeoutMs = 30_000) {
      await poll(
        `HAProxy to see ${which.join(', ')} ${state}`,
        timeoutMs,
        async () => {
          if (proc.exitCode !== null) throw new Error(`haproxy exited: ${log}`);
          const s = await status();
          return which.every((n) => s[n]?.startsWith(state)) ? true : undefined;
        },
        50,
      );
    },
    log: () => log,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
  await b.until('UP', names);
  return b;
}

/**
 * deploy/nginx.conf with its placeholders filled as `envsubst` would (only the braced names: nginx's
 * own $variables stay), and the paths a root install has by default put in `dir`, so it runs as anyone.
 */
export function renderNginx(vars: Record<string, string>, dir: string): string {
  const text = readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8').replace(/\$\{(\w+)\}/g, (m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`nginx.conf: no value for ${m}`);
    return v;
  });
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${dir}/${t};`);
  return text.replace(/^http \{$/m, `http {\n${temp.join('\n')}`);
}

/** nginx with deploy/nginx.conf in front of `gateways` (host:port each, at most 3). */
export async function startNginx(o: {
  port: number;
  gateways: string[];
  dir: string;
}): Promise<Omit<Balancer, 'status' | 'until'>> {
  mkdirSync(o.dir, { recursive: true });
  const vars: Record<string, string> = { MCP_LB_BIND: `127.0.0.1:${o.port}` };
  for (let i = 0; i < 3; i++) vars[`MCP_GW${i + 1}`] = o.gateways[i] ?? `127.0.0.1:${await freePort()}`;
  const file = join(o.dir, 'nginx.conf');
  writeFileSync(file, renderNginx(vars, o.dir));
  const proc = spawn('nginx', ['-c', file, '-p', o.dir, '-g', `daemon off; pid ${o.dir}/nginx.pid;`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const origin = `http://127.0.0.1:${o.port}`;
  // Up when it answers: a path the gateways answer without a token.
  await poll(
    'nginx to answer',
    30_000,
    async () => {
      if (proc.exitCode !== null) throw new Error(`nginx exited: ${log}`);
      return (await fetch(`${origin}/healthz`)).status === 200 ? true : undefined;
    },
    50,
  );
  return {
    origin,
    log: () => log,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGQUIT');
      await exited;
    },
  };
}

/** The gateway's answer to "which upstream process served this": the fixture's `pid` tool text. */
export function pidOf(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? '').trim();
}
