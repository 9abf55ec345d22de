/** MCP Apps pieces that need no server: `_meta.ui` reading, the CSP builder, the page, the policy. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAppCsp } from '../../../src/core/apps/csp.js';
import { appDocument, withCspMeta } from '../../../src/core/apps/document.js';
import { resourceUiOf, toolUiOf, visibleToApp, visibleToModel } from '../../../src/core/apps/meta.js';
import { boundedSize, checkAppLink, resolveAppToolCall } from '../../../src/core/apps/policy.js';
import type { HostTool } from '../../../src/core/host-api.js';

test('toolUiOf: _meta.ui wins over the older key; only ui:// URIs; unknown visibility values dropped', () => {
  assert.deepEqual(toolUiOf({ ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' }), { resourceUri: 'ui://a' });
  assert.deepEqual(toolUiOf({ 'ui/resourceUri': 'ui://b' }), { resourceUri: 'ui://b' });
  assert.equal(toolUiOf({ ui: { resourceUri: 'https://evil.example/app.html' } }), undefined);
  assert.deepEqual(toolUiOf({ ui: { visibility: ['app', 'robot', 'app'] } }), { visibility: ['app'] });
  assert.equal(toolUiOf(undefined), undefined);
  assert.equal(toolUiOf({ ui: 'nonsense' }), undefined);
});

test('visibility: no list means everyone; app-only tools hidden from people and agents', () => {
  assert.equal(visibleToModel({}), true);
  assert.equal(visibleToApp({}), true);
  assert.equal(visibleToModel({ ui: { visibility: ['app'] } }), false);
  assert.equal(visibleToApp({ ui: { visibility: ['model'] } }), false);
  assert.equal(visibleToModel({ ui: { visibility: ['model', 'app'] } }), true);
});

test('resourceUiOf keeps known fields and strings only', () => {
  assert.deepEqual(
    resourceUiOf({
      ui: {
        csp: { connectDomains: ['https://api.example.com', 7], bogus: ['x'] },
        permissions: { camera: {}, root: {} },
        prefersBorder: true,
      },
    }),
    {
      csp: { connectDomains: ['https://api.example.com'] },
      permissions: { camera: {} },
      prefersBorder: true,
    },
  );
  assert.deepEqual(resourceUiOf(null), {});
});

test('buildAppCsp: nothing declared means no network; declared domains open their directives only', () => {
  const none = buildAppCsp(undefined).policy;
  assert.match(none, /default-src 'none'/);
  assert.match(none, /connect-src 'none'/);
  assert.match(none, /frame-src 'none'/);
  // The app's own local code may run (pdf.js starts a blob: worker, with a data: module as its
  // fallback); none of it opens the network.
  assert.match(none, /script-src 'unsafe-inline' blob: data:(;|$)/);
  assert.match(none, /worker-src blob:(;|$)/);
  assert.doesNotMatch(none, /worker-src[^;]*('self'|\*|https?:)/);
  const some = buildAppCsp({
    connectDomains: ['https://api.example.com'],
    resourceDomains: ['https://cdn.example.com', '*.fonts.example'],
  }).policy;
  assert.match(some, /connect-src https:\/\/api\.example\.com(;|$)/);
  assert.match(some, /script-src 'unsafe-inline' blob: data: https:\/\/cdn\.example\.com \*\.fonts\.example/);
  assert.match(some, /img-src data: blob: https:\/\/cdn\.example\.com/);
});

test('buildAppCsp refuses keywords, wildcards and directive injection', () => {
  const { policy, rejected } = buildAppCsp({
    connectDomains: [
      '*',
      "'unsafe-eval'",
      'https://ok.example; script-src *',
      'https://a.example b.example',
      'data:',
      'https://fine.example:8443/api/',
    ],
  });
  assert.deepEqual(rejected, [
    '*',
    "'unsafe-eval'",
    'https://ok.example; script-src *',
    'https://a.example b.example',
    'data:',
  ]);
  assert.match(policy, /connect-src https:\/\/fine\.example:8443\/api\/(;|$)/);
  assert.doesNotMatch(policy, /unsafe-eval/);
});

test('the page: sandboxed frame without same-origin, app HTML escaped into srcdoc with the CSP first', () => {
  const page = appDocument({
    html: '<!DOCTYPE html><p>"hi" & <b>bye</b></p>',
    csp: "default-src 'none'",
    allow: 'camera',
    title: 'A <t>',
    border: true,
  });
  assert.match(page, /<iframe id="app" title="A &lt;t&gt;" sandbox="allow-scripts" allow="camera" srcdoc="/);
  assert.doesNotMatch(page, /allow-same-origin|allow-popups|allow-top-navigation|allow-forms/);
  assert.match(page, /srcdoc="&lt;!DOCTYPE html&gt;&lt;meta http-equiv=&quot;Content-Security-Policy&quot;/);
  assert.match(page, /&lt;p&gt;&quot;hi&quot; &amp; &lt;b&gt;bye/);
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'">/);
  assert.equal(
    withCspMeta('<html><head></head></html>', 'x').indexOf('<meta http-equiv="Content-Security-Policy" content="x">'),
    '<!DOCTYPE html>'.length,
  );
});

const t = (name: string, ui?: HostTool['ui']): HostTool => ({
  server: 's',
  name,
  qualifiedName: `mcp__s__${name}`,
  description: '',
  inputSchema: {},
  annotations: {},
  ...(ui ? { ui } : {}),
});

test('resolveAppToolCall: own tools by name only, app-visible only', () => {
  const tools = [t('a'), t('hidden', { visibility: ['model'] }), t('apponly', { visibility: ['app'] })];
  assert.equal(resolveAppToolCall('s', tools, 'a').name, 'a');
  assert.equal(resolveAppToolCall('s', tools, 'apponly').name, 'apponly');
  assert.throws(() => resolveAppToolCall('s', tools, 'hidden'), /not available to apps/);
  assert.throws(() => resolveAppToolCall('s', tools, 'mcp__s__a'), /own server/);
  assert.throws(() => resolveAppToolCall('s', tools, 42), /needs a tool name/);
});

test('checkAppLink and boundedSize', () => {
  assert.equal(checkAppLink('https://example.com/x').host, 'example.com');
  assert.equal(checkAppLink('mailto:a@example.com').protocol, 'mailto:');
  for (const bad of ['javascript:alert(1)', 'command:foo', 'vscode://x', 'file:///etc/passwd', 'not a url', 5])
    assert.throws(() => checkAppLink(bad));
  assert.deepEqual(boundedSize({ width: 10.2, height: Infinity }), { width: 11 });
  assert.deepEqual(boundedSize({ height: 1e9, width: -3 }), { height: 20_000 });
});

test('appStyleVariables: known names only, short values without markup or CSS breakers', async () => {
  const { appStyleVariables } = await import('../../../src/core/apps/styles.js');
  assert.deepEqual(
    appStyleVariables({
      '--color-background-primary': ' #1f1f1f ',
      '--font-sans': 'system-ui, sans-serif',
      '--color-text-primary': 'red; background: url(https://evil.example)',
      '--color-border-primary': '</style><script>',
      '--font-mono': 'x'.repeat(400),
      '--not-a-variable': 'blue',
      '--color-text-secondary': 5,
    }),
    { '--color-background-primary': '#1f1f1f', '--font-sans': 'system-ui, sans-serif' },
  );
  assert.deepEqual(appStyleVariables('nope'), {});
});

test('buildAppCsp refuses loopback, link-local, private hosts, port wildcards and wildcards under a public suffix (issue 29, item 9)', () => {
  const bad = [
    'http://127.0.0.1:*',
    'ws://localhost:*',
    'http://localhost:3000',
    'http://169.254.169.254',
    'http://192.168.1.1',
    'http://10.0.0.5:8080',
    'http://172.20.1.1',
    'http://0x7f.1',
    'http://2130706433',
    'https://printer.local',
    'https://intranet',
    'https://api.example.com:*',
    '*.com',
    'https://*.co.uk',
    '*.github.io',
  ];
  const { policy, rejected } = buildAppCsp({ connectDomains: [...bad, 'https://api.example.com', '*.example.com'] });
  assert.deepEqual(rejected, bad);
  assert.match(policy, /connect-src https:\/\/api\.example\.com \*\.example\.com(;|$)/);
  // A local server's app, when the user allowed it, may reach this machine (still no port wildcard).
  const local = buildAppCsp({ connectDomains: ['http://127.0.0.1:3000', 'ws://localhost:*'] }, { allowLocal: true });
  assert.deepEqual(local.rejected, ['ws://localhost:*']);
});
