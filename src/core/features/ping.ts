/**
 * Liveness: a connected server is pinged every `intervalMs`; one that does not answer within the
 * interval is reported unresponsive (its connection then reconnects it). An error reply is an
 * answer, so only a timeout counts; a closed connection ends the loop quietly. 2026-07-28 removed
 * `ping`: a modern server is asked `server/discover`, a request it always has.
 */
import type { Client } from '@modelcontextprotocol/client';
import { isRequestTimeout } from '../errors.js';
import type { Clock, Disposable, Logger } from '../ports.js';

export function startPinging(
  client: Client,
  intervalMs: number,
  clock: Clock,
  log: Logger,
  onUnresponsive: (message: string) => void,
): Disposable {
  let stopped = false;
  let timer: Disposable | undefined;
  const schedule = (): void => {
    if (stopped) return;
    timer = clock.setTimeout(() => void tick(), intervalMs);
  };
  const tick = async (): Promise<void> => {
    if (stopped) return;
    try {
      if (client.getProtocolEra() === 'modern') await client.discover({ timeout: intervalMs });
      else await client.ping({ timeout: intervalMs });
    } catch (err) {
      if (stopped) return;
      if (isRequestTimeout(err)) {
        stopped = true;
        onUnresponsive(`did not answer a ping within ${intervalMs} ms`);
        return;
      }
      log.debug(`ping: ${err instanceof Error ? err.message : String(err)}`);
    }
    schedule();
  };
  schedule();
  return {
    dispose() {
      stopped = true;
      timer?.dispose();
    },
  };
}
