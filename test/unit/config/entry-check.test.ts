/**
 * The zod-free checks of a server entry (core/config/entry-check.ts) and of an input declaration
 * (inputs-check.ts) against zod's schemas: every entry
 * it accepts, zod accepts with the same result; it accepts the everyday entries (so activation reads
 * them without zod); and a broken entry still gets zod's message with its JSON path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainEntry } from '../../../src/core/config/entry-check.js';
import { serverEntrySchema } from '../../../src/core/config/entry-schema.js';
import { validateServerEntry } from '../../../src/core/config/schema.js';
import { plainInput } from '../../../src/core/config/inputs-check.js';
import { inputDeclarationSchema } from '../../../src/core/config/inputs-schema.js';

// Values of every JSON kind, and the edges of the schema's limits.
const SAMPLES: unknown[] = [
  'x',
  '',
  'https://auth.example.com/meta',
  'https://auth.example.com',
  'http://auth.example.com/x',
  'not a url',
  'node',
  'python',
  'authorization_code',
  'client_secret_post',
  0,
  1,
  -1,
  1.5,
  65535,
  65536,
  true,
  false,
  null,
  [],
  ['a'],
  [''],
  ['a', 1],
  {},
  { a: 'b' },
  { a: 1 },
  { a: true },
  { a: null },
  { a: ['b'] },
  { type: 'node' },
  { type: 'ruby' },
  { id: 'io.github/x' },
  { id: '' },
  { id: 'x', version: '1.0.0', extra: 1 },
  { allowWrite: ['~/x'] },
  { allowWrite: [''] },
  { allowedDomains: ['a.example'] },
];

// Every field of the entry and of its nested objects, as a path from the entry.
const FIELDS: string[][] = [
  ...['type', 'command', 'args', 'env', 'cwd', 'envFile', 'url', 'headers', 'oauth', 'timeout', 'toolTimeout']
    .concat(['disabled', 'dev', 'headersHelper', 'registry', 'sandboxEnabled', 'sandbox', 'unknownKey'])
    .map((k) => [k]),
  ...['clientId', 'callbackPort', 'authServerMetadataUrl', 'scopes', 'grantType', 'tokenEndpointAuthMethod']
    .concat(['signingAlgorithm', 'issuer', 'clientMetadataUrl', 'other'])
    .map((k) => ['oauth', k]),
  ['dev', 'watch'],
  ['dev', 'debug'],
  ['dev', 'debug', 'type'],
  ['registry', 'id'],
  ['registry', 'version'],
  ['sandbox', 'filesystem'],
  ['sandbox', 'network'],
  ['sandbox', 'filesystem', 'allowWrite'],
  ['sandbox', 'filesystem', 'denyRead'],
  ['sandbox', 'network', 'allowedDomains'],
  ['sandbox', 'network', 'deniedDomains'],
];

function withValue(path: string[], value: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = { command: 'node', args: ['server.js'] };
  let at = root;
  for (const k of path.slice(0, -1)) {
    const next = typeof at[k] === 'object' && at[k] !== null ? { ...(at[k] as object) } : {};
    if (k === 'debug') Object.assign(next, { type: 'node' });
    if (k === 'registry') Object.assign(next, { id: 'io.github/x' });
    at = at[k] = next as Record<string, unknown>;
  }
  at[path[path.length - 1]!] = value;
  return root;
}

test('whatever the zod-free check accepts, zod accepts with the same result', () => {
  let accepted = 0;
  let tried = 0;
  for (const path of FIELDS)
    for (const value of SAMPLES) {
      const raw = withValue(path, value);
      tried++;
      const fast = plainEntry(raw);
      const zod = serverEntrySchema.safeParse(raw);
      if (fast === undefined) continue;
      accepted++;
      assert.ok(zod.success, `accepted without zod, refused by zod: ${JSON.stringify(raw)}`);
      assert.deepStrictEqual(fast, zod.data, JSON.stringify(raw));
      // The same keys in the same order as zod gives them.
      assert.deepEqual(Object.keys(fast), Object.keys(zod.data), JSON.stringify(raw));
    }
  // It must not pass by accepting nothing, nor by accepting everything.
  assert.ok(accepted > 80 && accepted < tried, `${accepted} of ${tried}`);
});

test('the everyday entries are checked without zod', () => {
  const everyday: unknown[] = [
    { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { PORT: 3000, DEBUG: true } },
    { type: 'stdio', command: 'node', args: ['s.js'], cwd: '${workspaceFolder}', envFile: '.env', disabled: false },
    { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
    { url: 'https://mcp.example.com/sse', oauth: { clientId: 'abc', callbackPort: 33418, scopes: ['read'] } },
    { command: 'uvx', args: ['mcp-server-git'], registry: { id: 'io.github/git', version: '1.0.0' }, timeout: 30000 },
    { command: 'node', args: ['s.js'], sandboxEnabled: true, sandbox: { network: { allowedDomains: ['a.example'] } } },
    { command: 'node', args: ['s.js'], dev: { watch: 'src/**/*.ts', debug: { type: 'node' } }, autoApprove: ['x'] },
  ];
  for (const raw of everyday) {
    const fast = plainEntry(raw);
    assert.ok(fast, JSON.stringify(raw));
    assert.deepStrictEqual(fast, serverEntrySchema.parse(raw));
  }
});

test('a broken entry still gets zod’s message, with the file and the JSON path of the field', () => {
  const loc = { file: '/w/.mcp.json', jsonPath: ['mcpServers', 'x'], name: 'x', scope: 'project' as const };
  const r = validateServerEntry({ command: 'node', args: ['a', 3], timeout: -5 }, loc);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.deepEqual(
    r.problems.map((p) => [p.file, p.jsonPath, p.message]),
    [
      [
        '/w/.mcp.json',
        ['mcpServers', 'x', 'args', 1],
        '"args[1]" of server "x" must be a string, but it is a number (3).',
      ],
      [
        '/w/.mcp.json',
        ['mcpServers', 'x', 'timeout'],
        '"timeout" of server "x" must be a positive number of milliseconds.',
      ],
    ],
  );
});

// `inputs` of .vscode/mcp.json: the same promise for the zod-free check of a declaration (inputs-check.ts).
test('whatever the zod-free input check accepts, zod accepts with the same result', () => {
  const base = { id: 'token', type: 'promptString' };
  const fields = ['id', 'type', 'description', 'password', 'default', 'options', 'command', 'args', 'other'];
  const values: unknown[] = [
    ...SAMPLES,
    'pickString',
    'command',
    'promptString',
    [{ value: 'a' }],
    [{ label: 1, value: 'a' }],
  ].concat([[{ label: 'A', value: 'a', x: 1 }], [{ label: 'A' }], ['a', { value: 'b' }], [undefined]]);
  let accepted = 0;
  const candidates: unknown[] = [{ id: 'x' }, {}, null, 'x', []];
  for (const f of fields) for (const v of values) candidates.push({ ...base, [f]: v });
  for (const raw of candidates) {
    const fast = plainInput(raw);
    if (fast === undefined) continue;
    accepted++;
    const zod = inputDeclarationSchema.safeParse(raw);
    assert.ok(zod.success, `accepted without zod, refused by zod: ${JSON.stringify(raw)}`);
    assert.deepStrictEqual(fast, zod.data, JSON.stringify(raw));
    assert.deepEqual(Object.keys(fast), Object.keys(zod.data), JSON.stringify(raw));
  }
  assert.ok(accepted > 40 && accepted < candidates.length, `${accepted} of ${candidates.length}`);
  const everyday = [
    { id: 'token', type: 'promptString', description: 'API token', password: true },
    { id: 'env', type: 'pickString', options: ['dev', 'prod'], default: 'dev' },
  ];
  for (const d of everyday) assert.deepStrictEqual(plainInput(d), inputDeclarationSchema.parse(d));
});
