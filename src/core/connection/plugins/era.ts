/**
 * Era verdicts as a launch plugin (era.ts): the handshake a connection starts with (probe, or a
 * remembered verdict), the verdict remembered once `initialize` was answered, and a remembered
 * verdict forgotten when a connect on it failed (the server changed: the next connect probes).
 * Each launch asks afresh, so a verdict one launch learnt is the next launch's prior.
 */
import { NeedsAuthError } from '../connect.js';
import { negotiatesEra, type EraVerdicts } from '../era.js';
import type { LaunchPluginFactory } from '../launch-plugin.js';
import type { PriorDiscovery } from '@modelcontextprotocol/client';

export function eraPlugin(eras: EraVerdicts): LaunchPluginFactory {
  return ({ def, log }) => {
    if (!negotiatesEra(def.config)) return {};
    let prior: PriorDiscovery | undefined;
    return {
      handshake: () => {
        prior = eras.prior(def.config);
        return prior ? { prior } : {};
      },
      opened: async (conn) => {
        if (prior) return;
        log.info(`protocol ${conn.protocolVersion} (${conn.era}, negotiated)`);
        await eras.remember(def.config, conn.client.getDiscoverResult());
      },
      connectFailed: async (err) => {
        if (prior && !(err instanceof NeedsAuthError)) await eras.forget(def.config);
      },
    };
  };
}
