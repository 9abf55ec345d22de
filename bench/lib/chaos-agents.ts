/**
 * The chaos run's gateway agents in a process of their own (issue 30), as agents of the editor's
 * gateway are: the run's memory figures are the host's (host, gateway, host callers), not those of
 * eight SDK clients sharing its heap and malloc arenas. This is the run's half; the child is
 * chaos-agents-child.ts (built beside run.cjs as chaos-agents-child.cjs), driven over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export type AgentEra = 'legacy' | 'modern';

export type ToChild =
  | { op: 'connect'; url: string; token: string; agents: { name: string; era: AgentEra }[] }
  | { op: 'call'; id: number; agent: number; tool: string; nonce: string; timeoutMs: number }
  | { op: 'close' };

export type FromChild =
  | { op: 'ready' }
  | { op: 'failed'; message: string }
  | { op: 'result'; id: number; text: string; isError: boolean }
  | { op: 'error'; id: number; message: string };

/** Beside run.cjs in bench/.tmp (scripts/bench.mjs builds both). */
const CHILD = join(__dirname, 'chaos-agents-child.cjs');

export interface ChaosAgents {
  /** `tool` on the gateway through agent `agent`; rejects with the agent's error text. */
  call(agent: number, tool: string, nonce: string, timeoutMs: number): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export async function startChaosAgents(
  url: string,
  token: string,
  agents: { name: string; era: AgentEra }[],
): Promise<ChaosAgents> {
  const child: ChildProcess = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const waiting = new Map<
    number,
    { resolve: (r: { text: string; isError: boolean }) => void; reject: (e: Error) => void }
  >();
  let ready: { resolve: () => void; reject: (e: Error) => void } | undefined;
  child.on('message', (m: FromChild) => {
    if (m.op === 'ready') return ready?.resolve();
    if (m.op === 'failed') return ready?.reject(new Error(m.message));
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.op === 'result') w.resolve({ text: m.text, isError: m.isError });
    else w.reject(new Error(m.message));
  });
  void exited.then(() => {
    for (const w of waiting.values()) w.reject(new Error('the agents process exited'));
    waiting.clear();
    ready?.reject(new Error('the agents process exited before its agents connected'));
  });
  const send = (m: ToChild) => child.send(m);
  await new Promise<void>((resolve, reject) => {
    ready = { resolve, reject };
    send({ op: 'connect', url, token, agents });
  });
  let next = 0;
  return {
    call(agent, tool, nonce, timeoutMs) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        send({ op: 'call', id, agent, tool, nonce, timeoutMs });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      send({ op: 'close' });
      await exited;
    },
  };
}
