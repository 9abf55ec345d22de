/**
 * The stdio floor under the host, without MCP: line round trips through a child process that
 * echoes them, spawned `detached` (its own session and process group, as the host spawns servers
 * so it can stop their whole tree) and not (as the bare SDK spawns them). On Linux with
 * autogroup scheduling a new session is a new scheduling group, and every wake-up of the server
 * crosses groups: on a loaded 2-core machine that alone cost 13-51% of round trips per second.
 */
import { spawn } from 'node:child_process';

const ECHO = `process.stdin.setEncoding('utf8');let b='';process.stdin.on('data',(c)=>{b+=c;let i;while((i=b.indexOf('\\n'))!==-1){process.stdout.write(b.slice(0,i+1));b=b.slice(i+1);}})`;
const LINE = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}\n';

interface Echo {
  call(): Promise<void>;
  close(): void;
}

function start(detached: boolean): Echo {
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['pipe', 'pipe', 'ignore'], detached });
  child.stdout.setEncoding('utf8');
  const waiting: (() => void)[] = [];
  let buf = '';
  child.stdout.on('data', (d: string) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
      buf = buf.slice(i + 1);
      waiting.shift()?.();
    }
  });
  return {
    call: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        child.stdin.write(LINE);
      }),
    close: () => child.kill(),
  };
}

/** Round trips per second, 16 in flight, own session vs same session; alternating blocks. */
export async function pipeEchoThroughput(n: number): Promise<{ ownSession: number; sameSession: number }> {
  const own = start(true);
  const same = start(false);
  const ms = { own: 0, same: 0 };
  const run = async (e: Echo, k: number): Promise<number> => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < k) await e.call();
      }),
    );
    return performance.now() - t0;
  };
  try {
    await run(own, 500);
    await run(same, 500);
    for (let done = 0; done < n; done += 1000) {
      const k = Math.min(1000, n - done);
      ms.own += await run(own, k);
      ms.same += await run(same, k);
    }
  } finally {
    own.close();
    same.close();
  }
  return { ownSession: (n / ms.own) * 1000, sameSession: (n / ms.same) * 1000 };
}
