import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { checkRequest } from '../../../src/core/gateway/http.js';
import { admit } from '../../../src/core/config/admit.js';
import { def as makeDef } from '../../support/defs.js';

const def = (name: string, config: Record<string, unknown>) =>
  makeDef(name, config, { scope: 'project', file: '.mcp.json', jsonPath: ['mcpServers', name] });

test('admission holds back entries pointing at our own gateway, or running mcp-host serve, with a reason; others run', () => {
  const own = 'http://127.0.0.1:4321/mcp';
  const defs = [
    def('self', { type: 'http', url: own }),
    def('selfLocalhost', { type: 'http', url: 'http://localhost:4321/mcp/' }),
    def('serve', { type: 'stdio', command: 'npx', args: ['-y', 'mcp-host', 'serve'] }),
    def('otherPort', { type: 'http', url: 'http://127.0.0.1:4322/mcp' }),
    def('remote', { type: 'http', url: 'https://example.com/mcp' }),
    def('tool', { type: 'stdio', command: 'mcp-host', args: ['list'] }),
  ];
  const out = admit(defs, { trusted: true, ownGateways: [own] });
  assert.deepEqual(
    out.map((d) => d.admission!.run),
    [false, false, false, true, true, true],
  );
  const first = out[0]!.admission!;
  assert.ok(!first.run && first.reason === 'config' && /own gateway/.test(first.message));
});

function req(headers: Record<string, string>, url = '/mcp'): IncomingMessage {
  return { url, headers } as unknown as IncomingMessage;
}

test('checkRequest: path, Origin, Host and bearer token, in that order', () => {
  const ok = { host: '127.0.0.1:9', authorization: 'Bearer secret' };
  assert.deepEqual(checkRequest(req(ok), 'secret', 9), { ok: true });
  assert.deepEqual(checkRequest(req({ ...ok, host: 'localhost:9' }), 'secret', 9), { ok: true });
  assert.equal((checkRequest(req(ok, '/other'), 'secret', 9) as { status: number }).status, 404);
  assert.equal(
    (checkRequest(req({ ...ok, origin: 'http://127.0.0.1:9' }), 'secret', 9) as { status: number }).status,
    403,
  );
  assert.equal(
    (checkRequest(req({ ...ok, host: 'attacker.example:9' }), 'secret', 9) as { status: number }).status,
    403,
  );
  assert.equal((checkRequest(req({ ...ok, host: '127.0.0.1:10' }), 'secret', 9) as { status: number }).status, 403);
  assert.equal((checkRequest(req({ host: ok.host }), 'secret', 9) as { status: number }).status, 401);
  assert.equal(
    (checkRequest(req({ ...ok, authorization: 'Bearer secreT' }), 'secret', 9) as { status: number }).status,
    401,
  );
  assert.equal(
    (checkRequest(req({ ...ok, authorization: 'Basic secret' }), 'secret', 9) as { status: number }).status,
    401,
  );
});
