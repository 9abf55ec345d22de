// Child process for harness.e2e.test.ts: starts a session, prints its pids and folder as one JSON
// line, then waits to be interrupted. It never disposes: the harness's hooks must clean up.
import { startVSCode } from '../harness.js';

async function main(): Promise<void> {
  const vs = await startVSCode({ workspace: 'empty', name: 'hold-session' });
  process.stdout.write(`${JSON.stringify({ serverPid: vs.serverPid, root: vs.root })}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
