// The gateway in real VS Code (code-server): the discovery file appears, and an agent process
// started in the integrated terminal finds the gateway through the injected variables alone and
// calls a tool of a server that is connected in the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifactsDir, EVERYTHING, killMarked, repoRoot, startVSCode, stepRunner } from './harness.js';
import { openTerminal, runInTerminal, TERMINAL_SETTINGS } from './support/terminal.js';
import { poll } from './support/workbench.js';

const SDK = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');

/** An agent as a terminal would start it: it knows only the two environment variables. */
function agentScript(out: string): string {
  return `import { Client } from ${JSON.stringify(pathToFileURL(join(SDK, 'client', 'index.js')).href)};
import { StreamableHTTPClientTransport } from ${JSON.stringify(pathToFileURL(join(SDK, 'client', 'streamableHttp.js')).href)};
import { renameSync, writeFileSync } from 'node:fs';
const url = process.env.MCP_HOST_GATEWAY_URL;
const token = process.env.MCP_HOST_GATEWAY_TOKEN;
const client = new Client({ name: 'terminal-agent', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer ' + token } } });
await client.connect(transport);
const tools = (await client.listTools()).tools.map((t) => t.name);
const r = await client.callTool({ name: 'everything__echo', arguments: { message: 'from the terminal' } });
// Written whole, then renamed: the test polls for the file and must never read half of it.
writeFileSync(${JSON.stringify(out + '.part')}, JSON.stringify({ url, tools, text: r.content.map((c) => c.text).join('') }));
renameSync(${JSON.stringify(out + '.part')}, ${JSON.stringify(out)});
await transport.terminateSession();
await client.close();
`;
}

test(
  'gateway in real VS Code: discovery file, terminal variables, an agent calls a tool',
  { timeout: 900_000 },
  async (t) => {
    const mark = `mcp-host-gw-e2e-${randomBytes(4).toString('hex')}`;
    const home = mkdtempSync(join(tmpdir(), 'gw-e2e-home-'));
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const vs = await startVSCode({
      workspace: 'gateway',
      name: 'gateway',
      env: { MCP_HOST_HOME: home },
      settings: {
        ...TERMINAL_SETTINGS,
        'mcpHost.servers': { everything: { command: process.execPath, args: [EVERYTHING, 'stdio', mark] } },
      },
    });
    // On a failure, keep what the extension host said (the session folder is removed at the end).
    const step = stepRunner(t, vs, () => {
      for (const channel of ['exthost', 'MCP Host']) {
        const text = vs.readLogFile(channel);
        if (text) writeFileSync(join(artifactsDir, `gateway-${channel.replace(/\W+/g, '-')}.log`), text);
      }
    });
    t.after(async () => {
      await vs.dispose();
      killMarked(mark);
    });
    const dir = join(home, 'gateway');
    let discovered: { url: string; token: string; pid: number; workspaceFolders: string[] } | undefined;

    await step('the discovery file appears in $MCP_HOST_HOME/gateway, private, naming this workspace', async () => {
      await vs.waitForLogFile('MCP Host', /activated in \d+(\.\d+)? ms/, 180_000);
      const file = await poll('the gateway discovery file', 60_000, async () =>
        existsSync(dir) ? readdirSync(dir).find((f) => /^\d+\.json$/.test(f)) : undefined,
      );
      const path = join(dir, file);
      discovered = JSON.parse(readFileSync(path, 'utf8')) as typeof discovered;
      assert.match(discovered!.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.ok(discovered!.token.length >= 32);
      assert.equal(`${discovered!.pid}.json`, file);
      assert.deepEqual(discovered!.workspaceFolders, [vs.workspaceDir]);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      // Without the token the gateway answers 401.
      const res = await fetch(discovered!.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(res.status, 401);
    });

    await step('the server is connected in the tree; the status bar shows the gateway', async () => {
      await vs.focusMcpHostView();
      await vs.waitForTreeItem(/everything.*\d+ tools/, 120_000);
      const entry = await poll('the gateway status bar entry', 60_000, async () =>
        (await vs.statusBar()).find((e) => /MCP Host gateway: \d+ agents? connected/.test(e.label)),
      );
      assert.match(entry.text, /\d/);
    });

    await step(
      'an agent started in the integrated terminal reaches the gateway with the injected variables and calls a tool',
      async () => {
        const out = join(vs.workspaceDir, 'agent-result.json');
        const script = join(vs.workspaceDir, 'agent.mjs');
        writeFileSync(script, agentScript(out));
        await openTerminal(vs, 120_000);
        await runInTerminal(vs, `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`, 60_000);
        const result = await poll('the terminal agent to write its result', 120_000, async () =>
          existsSync(out) ? readFileSync(out, 'utf8') || undefined : undefined,
        );
        const r = JSON.parse(result) as { url: string; tools: string[]; text: string };
        assert.equal(r.url, discovered!.url);
        assert.ok(r.tools.includes('everything__echo'), r.tools.join(', '));
        assert.match(r.text, /from the terminal/);
        await vs.screenshot('agent-called');
        const log = await vs.waitForLogFile('MCP Host', /gateway: agent connected \(terminal-agent 1\.0\.0\)/, 30_000);
        assert.match(log, /gateway: agents reach this editor's servers at http:\/\/127\.0\.0\.1:\d+\/mcp/);
        // Registered with VS Code's chat where the editor has the API (1.101+); code-server 4.100 does not.
        const version = /gateway: VS Code (\S+) has no MCP server definition provider API/.exec(log)?.[1];
        if (version !== undefined) assert.match(version, /^1\.100\./);
        else assert.match(log, /gateway: offered to VS Code’s MCP support \(chat\)/);
      },
    );

    await step(
      'Connect an Agent… adds the .mcp.json entry; MCP Host sees it is its own gateway and does not connect to it',
      async () => {
        await vs.runCommand('MCP Host: Connect an Agent…');
        await vs.pickQuickItem(/Add to this project’s \.mcp\.json/);
        const file = join(vs.workspaceDir, '.mcp.json');
        const entry = await poll('the gateway entry in .mcp.json', 60_000, async () => {
          const doc = JSON.parse(readFileSync(file, 'utf8')) as {
            mcpServers: Record<string, { url?: string; headers?: Record<string, string> }>;
          };
          return doc.mcpServers['mcp-host'];
        });
        assert.deepEqual(entry, {
          type: 'http',
          url: '${MCP_HOST_GATEWAY_URL}',
          headers: { Authorization: 'Bearer ${MCP_HOST_GATEWAY_TOKEN}' },
        });
        assert.ok(!readFileSync(file, 'utf8').includes(discovered!.token), 'no token in the file');
        // The entry shows in the tree, disabled, and is never connected (no approval prompt either).
        await vs.focusMcpHostView();
        const row = await vs.waitForTreeItem(/mcp-host/, 60_000);
        assert.match((await row.getAttribute('aria-label')) ?? (await row.innerText()), /disabled/);
        assert.equal(await vs.page.locator('.monaco-dialog-box').count(), 0);
        const log = vs.readLogFile('MCP Host') ?? '';
        assert.doesNotMatch(log, /\[mcp-host\] .*connect/i);
      },
    );
  },
);
