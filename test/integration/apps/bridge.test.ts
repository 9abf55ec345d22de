/**
 * MCP Apps on plain Node: the real fixture server with an app, the host declaring the UI
 * extension, and the official bridge (`AppBridge`) driven by the official app side (`App` of
 * @modelcontextprotocol/ext-apps) over a MessageChannel. The app is treated as hostile: calls to
 * tools of other servers or tools hidden from apps, odd links and garbage messages are refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { HostTool, ToolCallResult } from '../../../src/core/host-api.js';
import { buildAppCsp } from '../../../src/core/apps/csp.js';
import { visibleToModel } from '../../../src/core/apps/meta.js';
import { loadAppResource } from '../../../src/core/apps/resource.js';
import { AppSession, type AppHostPorts } from '../../../src/core/apps/session.js';
import { PipeTransport } from '../../../src/core/apps/transport.js';
import { createHost, type McpHost } from '../../../src/core/host.js';
import { FIXTURES, MemoryLogger, def, stdioDef, tempDir, waitFor } from '../connection/helpers.js';

const APP_URI = 'ui://counter/app.html';

// ESM-only package, loaded with import() from this CommonJS test.
import type { App } from '@modelcontextprotocol/ext-apps' with { 'resolution-mode': 'import' };
import { pipeOf } from './message-pipe.js';

type AppModule = { App: typeof App };

/** Resolves with the first value `register` hands to its callback. */
function next<T>(register: (cb: (v: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

function text(r: { content?: unknown[] }): string {
  return (r.content ?? [])
    .map((c) => ((c as { type: string }).type === 'text' ? (c as { text: string }).text : ''))
    .join('\n');
}

let host: McpHost;
let appModule: AppModule;
const dir = tempDir('apps');

before(async () => {
  appModule = await import('@modelcontextprotocol/ext-apps');
  host = createHost({ logger: new MemoryLogger(), blobDir: dir, apps: true });
  host.setDefinitions([
    def('counter', { type: 'stdio', command: process.execPath, args: [path.join(FIXTURES, 'app-server.mjs')] }),
    stdioDef('other'),
  ]);
  await waitFor(host, 'counter', (s) => s.state.kind === 'connected');
  await waitFor(host, 'other', (s) => s.state.kind === 'connected');
});

after(async () => {
  await host.dispose();
});

function tool(name: string): HostTool {
  const t = host.server('counter')?.tools.find((x) => x.name === name);
  assert.ok(t, `tool ${name}`);
  return t;
}

describe('tools and resources of an app', () => {
  test('the host declares the UI extension, and reads _meta.ui and the older ui/resourceUri', async () => {
    const stats = await host.callTool('counter', 'counter_stats', {});
    assert.match(text(stats as never), /client ui extension: \{"mimeTypes":\["text\/html;profile=mcp-app"\]\}/);
    assert.deepEqual(tool('show_counter').ui, { resourceUri: APP_URI });
    assert.deepEqual(tool('legacy_counter').ui, { resourceUri: APP_URI });
    assert.deepEqual(tool('reset_counter').ui, { resourceUri: APP_URI, visibility: ['app'] });
    assert.deepEqual(tool('counter_stats').ui, { visibility: ['model'] });
    const forPeople = host
      .server('counter')!
      .tools.filter(visibleToModel)
      .map((t) => t.name);
    assert.deepEqual(forPeople.sort(), ['counter_stats', 'legacy_counter', 'show_counter']);
  });

  test('a host without apps does not declare the extension', async () => {
    const plain = createHost({ logger: new MemoryLogger(), blobDir: dir });
    try {
      plain.setDefinitions([
        def('counter', { type: 'stdio', command: process.execPath, args: [path.join(FIXTURES, 'app-server.mjs')] }),
      ]);
      await waitFor(plain, 'counter', (s) => s.state.kind === 'connected');
      assert.match(text((await plain.callTool('counter', 'counter_stats', {})) as never), /client ui extension: none/);
    } finally {
      await plain.dispose();
    }
  });

  test('the app resource is fetched through the host with its declared CSP (none: no network)', async () => {
    const res = await loadAppResource((uri) => host.readResource('counter', uri), APP_URI);
    assert.match(res.html, /<button id="reset"/);
    assert.deepEqual(res.meta, { csp: { connectDomains: [] }, prefersBorder: false });
    assert.match(buildAppCsp(res.meta.csp).policy, /connect-src 'none'/);
    await assert.rejects(
      loadAppResource((uri) => host.readResource('counter', uri), 'https://example.com/app.html'),
      /must be a ui:\/\/ URI/,
    );
  });
});

interface Harness {
  app: App;
  session: AppSession;
  calls: { tool: string; args: Record<string, unknown> }[];
  links: string[];
  sizes: { width?: number; height?: number }[];
  closeRequests: number;
  confirm: (t: HostTool, signal: AbortSignal) => Promise<boolean>;
  linkAnswer: boolean;
  appPort: MessagePort;
  hostPort: MessagePort;
  onResize?: () => void;
}

/** Opens an app on show_counter; `setup` registers the app's handlers before it connects. */
async function open(setup?: (app: App) => void): Promise<Harness> {
  const { port1, port2 } = new MessageChannel();
  const h = {
    calls: [],
    links: [],
    sizes: [],
    closeRequests: 0,
    confirm: async () => true,
    linkAnswer: false,
    appPort: port2,
    hostPort: port1,
  } as unknown as Harness;
  const ports: AppHostPorts = {
    tools: () => host.server('counter')?.tools ?? [],
    resources: () => host.server('counter')?.resources ?? [],
    callTool: async (t, args, signal): Promise<ToolCallResult> => {
      h.calls.push({ tool: t.name, args });
      // The same rule the editor applies: a tool not marked read-only asks first.
      if (t.annotations.readOnlyHint !== true && !(await h.confirm(t, signal)))
        throw new Error(`the user declined to run ${t.name}`);
      return host.callTool('counter', t.name, args, { signal });
    },
    readResource: (uri, signal) => host.readResource('counter', uri, { signal }),
    openLink: async (url) => {
      h.links.push(url.href);
      return h.linkAnswer;
    },
    resize: (s) => {
      h.sizes.push(s);
      h.onResize?.();
    },
    requestClose: () => h.closeRequests++,
  };
  h.session = await AppSession.create({
    server: 'counter',
    tool: tool('show_counter'),
    pipe: pipeOf(port1),
    ports,
    hostContext: { theme: 'dark', platform: 'desktop' },
    hostInfo: { name: 'mcp-host-test', version: '0.0.0' },
    log: new MemoryLogger(),
  });
  await h.session.start();
  h.app = new appModule.App({ name: 'test-app', version: '1.0.0' }, {}, { autoResize: false });
  setup?.(h.app);
  await h.app.connect(new PipeTransport(pipeOf(port2)));
  await h.session.ready;
  return h;
}

async function shut(h: Harness): Promise<void> {
  await h.session.close();
  await h.app.close().catch(() => {});
  h.appPort.close();
  h.hostPort.close();
}

describe('the bridge between an app and the host', () => {
  test('the app gets the host context (theme, tool), the tool input and the result; theme changes follow', async () => {
    let input!: Promise<{ arguments?: Record<string, unknown> }>;
    let result!: Promise<{ content?: unknown[]; structuredContent?: unknown }>;
    const h = await open((app) => {
      input = next((cb) => (app.ontoolinput = cb));
      result = next((cb) => (app.ontoolresult = cb));
    });
    try {
      const ctx = h.app.getHostContext();
      assert.equal(ctx?.theme, 'dark');
      assert.equal((ctx?.toolInfo?.tool as { name: string }).name, 'show_counter');
      assert.deepEqual(h.app.getHostCapabilities()?.serverTools, {});
      const listed = await h.app.listServerResources();
      assert.deepEqual(
        listed.resources.map((r) => r.uri),
        [APP_URI],
      );
      const read = await h.app.readServerResource({ uri: APP_URI });
      assert.match(String((read.contents[0] as { text?: string }).text), /Counter app/);
      const r = await host.callTool('counter', 'show_counter', { start: 7 });
      h.session.deliverInput({ start: 7 });
      h.session.deliverResult(r);
      assert.deepEqual((await input).arguments, { start: 7 });
      const got = await result;
      assert.equal(text(got), 'counter is 7');
      assert.deepEqual(got.structuredContent, { count: 7 });
      const changed = next<{ theme?: string }>((cb) => (h.app.onhostcontextchanged = cb));
      h.session.updateHostContext({ theme: 'light', platform: 'desktop' });
      assert.equal((await changed).theme, 'light');
    } finally {
      await shut(h);
    }
  });

  test("the app's call to its destructive tool goes through the host's confirmation; declined calls never reach the server", async () => {
    const h = await open();
    try {
      await host.callTool('counter', 'show_counter', { start: 5 });
      const asked: string[] = [];
      h.confirm = async (t) => {
        asked.push(t.name);
        return false;
      };
      await assert.rejects(
        h.app.callServerTool({ name: 'reset_counter', arguments: {} }),
        /declined to run reset_counter/,
      );
      assert.match(
        text((await host.callTool('counter', 'counter_stats', {})) as never),
        /^counter 5;/,
        'the declined call did not run',
      );
      h.confirm = async (t) => {
        asked.push(t.name);
        return true;
      };
      const r = await h.app.callServerTool({ name: 'reset_counter', arguments: {} });
      assert.equal(text(r), 'counter reset from 5 to 0');
      assert.deepEqual(asked, ['reset_counter', 'reset_counter']);
      assert.deepEqual(
        h.calls.map((c) => c.tool),
        ['reset_counter', 'reset_counter'],
      );
    } finally {
      await shut(h);
    }
  });

  test('an app reaches only app-visible tools of its own server', async () => {
    const h = await open();
    try {
      await assert.rejects(h.app.callServerTool({ name: 'counter_stats', arguments: {} }), /not available to apps/);
      const otherTool = host.server('other')!.tools[0]!;
      await assert.rejects(
        h.app.callServerTool({ name: otherTool.name, arguments: { text: 'x' } }),
        /counter has no tool "echo"/,
      );
      await assert.rejects(
        h.app.callServerTool({ name: otherTool.qualifiedName, arguments: {} }),
        /an app can only call tools of its own server/,
      );
      assert.deepEqual(h.calls, [], 'no refused call reached the host');
    } finally {
      await shut(h);
    }
  });

  test('links are opened only after asking, and only web links; size changes are bounded', async () => {
    const h = await open();
    try {
      const declined = await h.app.openLink({ url: 'https://example.com/docs' });
      assert.equal(declined.isError, true);
      h.linkAnswer = true;
      const opened = await h.app.openLink({ url: 'https://example.com/docs' });
      assert.notEqual(opened.isError, true);
      await assert.rejects(
        h.app.openLink({ url: 'command:workbench.action.terminal.new' }),
        /only http, https and mailto/,
      );
      await assert.rejects(h.app.openLink({ url: 'file:///etc/passwd' }), /only http, https and mailto/);
      assert.deepEqual(h.links, ['https://example.com/docs', 'https://example.com/docs']);
      const sized = next<void>((cb) => (h.onResize = cb));
      await h.app.sendSizeChanged({ width: 300, height: 1e9 });
      await sized;
      assert.deepEqual(h.sizes.at(-1), { width: 300, height: 20_000 });
    } finally {
      await shut(h);
    }
  });

  test('garbage on the pipe is dropped and the bridge keeps working', async () => {
    const h = await open();
    try {
      for (const junk of [
        'hello',
        42,
        null,
        { jsonrpc: '1.0', method: 'tools/call' },
        { jsonrpc: '2.0', id: {}, method: 'x' },
        [1, 2],
      ])
        h.appPort.postMessage(junk);
      const r = await h.app.callServerTool({ name: 'show_counter', arguments: { start: 3 } });
      assert.equal(text(r), 'counter is 3');
    } finally {
      await shut(h);
    }
  });

  test('closing tears the app down and aborts the calls it still has running', async () => {
    let teardown!: Promise<void>;
    const h = await open((app) => {
      teardown = next((cb) => {
        app.onteardown = () => {
          cb();
          return {};
        };
      });
    });
    let aborted = false;
    const waiting = next<void>((cb) => {
      h.confirm = (_t, signal) =>
        new Promise<boolean>((_resolve, reject) => {
          cb();
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('cancelled because the app closed'));
          });
        });
    });
    const pending = h.app.callServerTool({ name: 'reset_counter', arguments: {} }).then(
      () => 'resolved',
      (e: Error) => e.message,
    );
    await waiting;
    await h.session.close();
    await teardown;
    assert.equal(aborted, true);
    assert.equal(h.session.isClosed, true);
    // The bridge is closed: the app's pending request fails rather than hanging.
    assert.match(await pending, /closed|cancelled|Connection/i);
    await h.app.close().catch(() => {});
    h.appPort.close();
    h.hostPort.close();
  });
});
