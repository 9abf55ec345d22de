/**
 * Agents of both eras on SDK v2's client, as real agents reach a team gateway behind a balancer.
 * A 2025-11-25 agent keeps the spec's rule for a lost session ("Session Management": a 404 to a
 * request carrying `Mcp-Session-Id` means the session is gone; start a new one with a new
 * initialize): its call is sent again on the new session, since a 404 means it never ran (at most twice). A
 * 2026-07-28 agent has no session: every request may reach any process. Used by balancer.test.ts
 * and bench/balancer.ts.
 */
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export type CallResult = Awaited<ReturnType<Client['callTool']>>;

/** The 2025-11-25 answer to a request for a session this process does not hold. */
export function isSessionGone(err: unknown): boolean {
  return err instanceof SdkHttpError && err.status === 404;
}

export class TeamAgent {
  private client: Client | undefined;
  private transport: StreamableHTTPClientTransport | undefined;
  /** Sessions this agent started (2025-11-25): 1 + how many it lost. */
  sessions = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
    readonly era: '2025-11-25' | '2026-07-28',
    private readonly name = 'team-agent',
  ) {}

  /** The SDK client of the current session (for a `subscriptions/listen`); none before `connect`. */
  get sdk(): Client | undefined {
    return this.client;
  }

  get sessionId(): string | undefined {
    return this.transport?.sessionId;
  }

  async connect(): Promise<void> {
    const client = new Client(
      { name: this.name, version: '1.0.0' },
      this.era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    // The GET stream of a lost session fails too; the next call is what starts the new one.
    client.onerror = () => undefined;
    const transport = new StreamableHTTPClientTransport(new URL(this.url), {
      requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
    });
    await client.connect(transport);
    this.client = client;
    this.transport = transport;
    if (this.era === '2025-11-25') this.sessions++;
  }

  /** A tool call; on 2025-11-25 a lost session is replaced once and the call sent again. */
  async call(
    name: string,
    args: Record<string, unknown> = {},
    opts: Parameters<Client['callTool']>[1] = {},
  ): Promise<CallResult> {
    if (!this.client) await this.connect();
    // A new session may be lost too (its process drained or killed in turn): a few, not forever.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client!.callTool({ name, arguments: args }, opts);
      } catch (err) {
        if (this.era !== '2025-11-25' || !isSessionGone(err) || attempt === 3) throw err;
        const old = this.client!;
        this.client = undefined;
        await old.close().catch(() => undefined);
        await this.connect();
      }
    }
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
    this.client = undefined;
  }
}
