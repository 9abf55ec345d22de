/**
 * The IDE server's direct path: a `tools/call` of a read-only tool (tools.ts readOnlyTools) is
 * answered from the parsed frame, without the SDK server's schema pass over the request, its
 * dispatch and its promise chain. Those cost about as much as the rest of the hop together (bench
 * `ide`: small requests). Anything the path is not sure of goes to the SDK as before: an agent
 * not yet initialized, a request with a task or unknown fields, arguments the tool's schema
 * refuses, a tool that throws (read-only, so the SDK running it again is harmless). The answer is
 * the SDK's frame byte for byte (answer-frame.ts; test/integration/ide/direct-calls.test.ts
 * compares the two paths' frames).
 */
import { textResultFrame } from './answer-frame.js';
import type { ReadTool } from './tools.js';

const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class DirectCalls {
  /** How many calls took this path (the IDE server's stats; tests check the path is used). */
  answered = 0;

  constructor(
    private readonly readers: ReadonlyMap<string, ReadTool>,
    /** Until `notifications/initialized` the SDK decides what may be asked. */
    private readonly ready: () => boolean,
  ) {}

  /** The text of the frame answering `msg`, or undefined: the SDK's path. */
  answer(msg: unknown): string | undefined {
    if (!isRecord(msg) || msg.method !== 'tools/call' || msg.jsonrpc !== '2.0' || !this.ready()) return undefined;
    const { id, params } = msg;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
    if (!isRecord(params) || typeof params.name !== 'string') return undefined;
    for (const k of Object.keys(params)) if (!PARAM_KEYS.has(k)) return undefined;
    if (params._meta !== undefined && !isRecord(params._meta)) return undefined;
    const tool = this.readers.get(params.name);
    const args = params.arguments ?? {};
    if (!tool || !isRecord(args)) return undefined;
    const parsed = tool.inputSchema.safeParse(args);
    if (!parsed.success) return undefined;
    let frame: string;
    try {
      frame = textResultFrame(id, tool.value(parsed.data));
    } catch {
      return undefined;
    }
    this.answered++;
    return frame;
  }
}
