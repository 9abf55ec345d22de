/**
 * The protocol trace as a launch plugin: each fresh transport is wrapped by the front end's
 * `HostOptions.wrapTransport` (src/core/trace's hub: a transport of its own around the real one,
 * trace/transport.ts), which passes every message through unchanged.
 */
import type { HostOptions } from '../../host-api.js';
import type { LaunchPluginFactory } from '../launch-plugin.js';

export function tracePlugin(wrap: NonNullable<HostOptions['wrapTransport']>): LaunchPluginFactory {
  return () => ({ wrapTransport: (transport, def) => wrap(def, transport) });
}
