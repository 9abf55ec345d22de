// The deployment files in deploy/ (docs/team-gateway.md, "Several processes"), checked by the tools
// that run them, where this machine has them: HAProxy and nginx parse their configs, systemd verifies
// the unit, and docker's compose plugin resolves compose.yaml. The balancer configs run for real in
// test/integration/gateway/service/balancer.test.ts; the image is not built here (no daemon).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../src/core/config/index.js';
import { parseServiceConfig } from '../../src/core/gateway/index.js';
import { requireTool } from '../support/system-tool.js';
import { DEPLOY, renderNginx } from './gateway/service/fleet.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-deploy-'));
const read = (f: string): string => readFileSync(join(DEPLOY, f), 'utf8');
const GATEWAYS = { MCP_GW1: '127.0.0.1:18101', MCP_GW2: '127.0.0.1:18102', MCP_GW3: '127.0.0.1:18103' };

function run(cmd: string, args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The compose plugin: the docker CLI alone (no plugin, no daemon) cannot read a compose file. */
function composePlugin(): boolean {
  return run('docker', ['compose', 'version']).code === 0;
}

describe('deploy/', () => {
  test(
    'haproxy.cfg is valid with its placeholders filled',
    { skip: requireTool('haproxy', 'apt-get install haproxy') },
    () => {
      const env = {
        ...GATEWAYS,
        MCP_LB_BIND: '127.0.0.1:18100',
        MCP_LB_STATS: '127.0.0.1:18104',
        MCP_CHECK_INTER: '1s',
      };
      const ok = run('haproxy', ['-c', '-f', join(DEPLOY, 'haproxy.cfg')], env);
      assert.equal(ok.code, 0, ok.out);
      // The check can fail: a placeholder left empty is an error, not a silent default.
      const missing = run('haproxy', ['-c', '-f', join(DEPLOY, 'haproxy.cfg')], { ...env, MCP_GW2: '' });
      assert.notEqual(missing.code, 0, 'an empty server address is refused');
    },
  );

  test(
    'nginx.conf passes nginx -t once rendered',
    { skip: requireTool('nginx', 'apt-get install nginx-light') },
    () => {
      const file = join(dir, 'nginx.conf');
      writeFileSync(file, renderNginx({ ...GATEWAYS, MCP_LB_BIND: '127.0.0.1:18100' }, dir));
      const r = run('nginx', ['-t', '-c', file, '-p', dir, '-g', `pid ${dir}/nginx.pid;`]);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /test is successful/);
      assert.match(read('nginx.conf'), /hash \$http_authorization consistent;/, 'a person stays on one process');
    },
  );

  test(
    'the systemd unit verifies and is hardened',
    { skip: requireTool('systemd-analyze', 'apt-get install systemd') },
    () => {
      const unit = read('mcp-host-gateway.service');
      for (const key of [
        'DynamicUser=yes',
        'NoNewPrivileges=yes',
        'ProtectSystem=strict',
        'ProtectHome=yes',
        'PrivateTmp=yes',
      ])
        assert.ok(unit.includes(`\n${key}\n`), `${key} in the unit`);
      assert.match(unit, /^KillSignal=SIGTERM$/m, 'stopping drains');
      // verify checks that ExecStart's program exists: the unit names where npm installs mcp-host.
      const copy = join(dir, 'mcp-host-gateway.service');
      writeFileSync(copy, unit.replace('/usr/bin/mcp-host', '/bin/true'));
      const r = run('systemd-analyze', ['verify', copy]);
      assert.equal(r.code, 0, r.out);
      // verify warns about unknown keys and bad values without failing: any word about the unit is a fault.
      assert.ok(!r.out.includes(copy), r.out);
    },
  );

  test(
    'compose.yaml resolves',
    {
      skip: composePlugin()
        ? undefined
        : 'needs the docker compose plugin (docker-compose-plugin); the docker CLI here has none',
    },
    () => {
      const r = run('docker', ['compose', '-f', join(DEPLOY, 'compose.yaml'), 'config', '--quiet']);
      assert.equal(r.code, 0, r.out);
    },
  );

  test('gateway.json, the config compose.yaml mounts, is one the gateway takes without a problem', () => {
    const file = join(DEPLOY, 'gateway.json');
    const parsed = parseConfigText(read('gateway.json'), file, { jsonc: true });
    const value = (parsed.value as { gateway?: unknown }).gateway;
    const { config, problems } = parseServiceConfig([{ file, value }]);
    assert.deepEqual(problems, []);
    assert.ok(config.auth?.resource, 'the balancer’s URL as the resource, the same for every process');
    assert.ok(config.redis?.url.startsWith('redis://redis:'), 'the compose file’s Redis');
  });

  test('the image is the packed CLI on node:24-slim, not run as root', () => {
    const dockerfile = read('Dockerfile');
    assert.match(dockerfile, /^FROM node:24-slim$/m);
    assert.match(dockerfile, /mcp-host-\$\{VERSION\}\.tgz/, 'from npm run pack:cli');
    const user = /^USER (\S+)$/m.exec(dockerfile)?.[1];
    assert.ok(user && !/^(root|0)(:|$)/.test(user), `USER ${user}`);
    const compose = read('compose.yaml');
    for (const s of ['gw1:', 'gw2:', 'gw3:', 'redis:', 'haproxy:'])
      assert.ok(compose.includes(`\n  ${s}`), `service ${s}`);
    assert.match(compose, /\.\/haproxy\.cfg:/, 'the balancer runs the tested config');
  });
});
