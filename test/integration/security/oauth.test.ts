/**
 * OAuth against hostile peers (issue 12, items 1 and 12): an authorization server whose metadata
 * names a `file:`, `smb:` or shell-breaking URL never gets it opened, by the flow or by either
 * opener (editor, CLI; on Windows no shell sees the URL), and a forged redirect to the loopback
 * listener gets an error page while the user's sign-in keeps waiting.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserCommand, systemBrowser } from '../../../src/cli/open-browser.js';
import { AuthError, createHostAuth, createLoopbackReceiver } from '../../../src/core/auth/index.js';
import type { ServerDefinition } from '../../../src/core/config/types.js';
import { nullLogger } from '../../../src/core/ports.js';
import { externalOpener } from '../../../src/extension/auth/opener.js';
import { FakeBrowser, FakeClock, MemoryKeyValueStore, MemorySecretStore } from '../../support/fakes.js';

const MCP = 'https://mcp.evil.test/mcp';
const AS = 'https://as.evil.test';

/** A remote MCP server and its authorization server, answering from memory; `endpoint` is hostile. */
function hostileFetch(endpoint: string) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.href === MCP)
      return new Response('', {
        status: 401,
        headers: {
          'www-authenticate': `Bearer resource_metadata="https://mcp.evil.test/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return json({ resource: MCP, authorization_servers: [AS] });
    if (url.origin === AS && url.pathname.startsWith('/.well-known/')) {
      return json({
        issuer: AS,
        authorization_endpoint: endpoint,
        token_endpoint: `${AS}/token`,
        registration_endpoint: `${AS}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.href === `${AS}/register` && init?.method === 'POST') {
      const meta = JSON.parse(String(init.body)) as Record<string, unknown>;
      return json({ ...meta, client_id: 'client-1' }, 201);
    }
    return new Response('not found', { status: 404 });
  };
}

const def: ServerDefinition = {
  name: 'evil-remote',
  config: { type: 'http', url: MCP },
  source: { scope: 'project', file: '/w/.mcp.json', jsonPath: ['mcpServers', 'evil-remote'] },
  signature: `url:${MCP}`,
  hash: 'h',
};

function hostAuth(endpoint: string, browser: FakeBrowser) {
  return createHostAuth({
    secrets: new MemorySecretStore(),
    kv: new MemoryKeyValueStore(),
    logger: nullLogger,
    browser,
    receiver: createLoopbackReceiver(),
    fetch: hostileFetch(endpoint),
  });
}

for (const endpoint of [
  'file:///etc/passwd?x=1',
  'smb://host/share/x.exe?x=1',
  'javascript-ish:alert(1)',
  'http://evil.example/authorize',
]) {
  test(`an authorization URL ${JSON.stringify(endpoint)} is refused with an error naming the server; nothing is opened or printed`, async () => {
    const browser = new FakeBrowser();
    const printed: string[] = [];
    const auth = hostAuth(endpoint, browser);
    await assert.rejects(
      auth.authenticate(def, { onAuthorizationUrl: (u) => printed.push(u), continueWithoutBrowser: true }),
      (err: unknown) => err instanceof AuthError && /evil-remote/.test(err.message) && /only https/.test(err.message),
    );
    assert.deepEqual(browser.opened, []);
    assert.deepEqual(printed, []);
  });
}

test('an https URL with shell metacharacters reaches the opener re-serialised, and on Windows as one argv entry with no shell', async () => {
  const hostile = 'https://evil.example/a|calc.exe?x=1&y=^2 "q"';
  const browser = new FakeBrowser();
  const ac = new AbortController();
  const auth = hostAuth(hostile, browser);
  const done = auth.authenticate(def, { signal: ac.signal, onAuthorizationUrl: () => setImmediate(() => ac.abort()) });
  await assert.rejects(done, (err: unknown) => err instanceof AuthError && err.code === 'cancelled');
  assert.equal(browser.opened.length, 1);
  const opened = browser.opened[0]!;
  assert.equal(opened, new URL(opened).href, 'what is opened is the parsed URL, serialised again');
  assert.ok(opened.startsWith('https://evil.example/a|calc.exe?x=1&y='), opened);
  assert.doesNotMatch(opened, /[\s"]/, 'no space or quote survives serialisation');

  const [cmd, argv] = browserCommand(opened, 'win32', {});
  assert.equal(cmd, 'rundll32.exe');
  assert.deepEqual(argv, ['url.dll,FileProtocolHandler', opened]);
  assert.ok(
    ![cmd, ...argv].some((a) => /^cmd(\.exe)?$/i.test(a) || a === '/c' || a === 'start'),
    'no shell on Windows',
  );
  assert.deepEqual(browserCommand(opened, 'linux', {}), ['xdg-open', [opened]]);
  assert.deepEqual(browserCommand(opened, 'darwin', {}), ['open', [opened]]);
});

test('both openers refuse non-https URLs themselves, before the OS sees them', async () => {
  const handed: string[] = [];
  const editor = externalOpener(async (target) => {
    handed.push(target);
    return true;
  });
  const cli = systemBrowser({ BROWSER: '/nonexistent/browser-that-must-not-run' }, 'win32');
  for (const bad of [
    'file:///etc/passwd',
    'smb://host/share/x.exe',
    'vscode://evil/x',
    'http://10.0.0.1/login',
    'not a url',
  ]) {
    await assert.rejects(editor.open(bad), (e: unknown) => e instanceof AuthError && e.code === 'unsafe-url', bad);
    await assert.rejects(cli.open(bad), (e: unknown) => e instanceof AuthError && e.code === 'unsafe-url', bad);
  }
  assert.deepEqual(handed, []);
  assert.equal(await editor.open('https://as.example/authorize?a=1&b=2'), true);
  assert.equal(await editor.open('http://127.0.0.1:8080/authorize'), true);
  assert.deepEqual(handed, ['https://as.example/authorize?a=1&b=2', 'http://127.0.0.1:8080/authorize']);
});

test('a forged GET /callback?state=WRONG gets an error page; the sign-in waits for the right one until the timeout', async () => {
  const clock = new FakeClock();
  const receiver = createLoopbackReceiver({ clock, timeoutMs: 300_000 });

  const session = await receiver.start();
  const waiting = session.waitForCode('the-real-state');
  const forged = await fetch(`${session.redirectUrl}?state=WRONG&code=attacker`);
  assert.equal(forged.status, 400);
  assert.match(await forged.text(), /does not belong/);
  const forgedError = await fetch(`${session.redirectUrl}?state=WRONG&error=access_denied`);
  assert.equal(forgedError.status, 400);
  clock.advance(299_000);
  const real = await fetch(`${session.redirectUrl}?state=the-real-state&code=good`);
  assert.equal(real.status, 200);
  assert.equal(await waiting, 'good');
  await session.close();

  // Only forged ones: the sign-in ends by timeout, not by the forgery.
  const s2 = await receiver.start();
  const w2 = s2.waitForCode('s2');
  assert.equal((await fetch(`${s2.redirectUrl}?state=WRONG&code=x`)).status, 400);
  clock.advance(300_000);
  await assert.rejects(w2, (e: unknown) => e instanceof AuthError && e.code === 'timeout');
  await s2.close();
});
